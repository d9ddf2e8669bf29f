// The inspector's model view in real Chromium, against `voice dev --llm` with a fake model on
// loopback that calls a tool: a call's view shows each turn's model request (system prompt inside,
// once expanded), the tool's arguments and result, and each turn's latencies. Then every view at
// 375 px: no page scrolls sideways, and the Deliveries and Requests columns line up row to row.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureBuilt } from '../../cli/test/build.js';
import { startFakeModel, type FakeModel } from '#core/model/testing';
import { isLoopback, launch, webhookServer } from './demo-harness.js';

const BIN = new URL('../../bin/voice.js', import.meta.url).pathname;
const AUTH = { authorization: 'Bearer any-key', 'content-type': 'application/json' };
const SYSTEM = 'You are Booker, the front desk of a dental clinic. Keep answers short.';
/** Where the screenshot goes when SCREENSHOT=1 (the docs' picture of a call). */
const SHOT = new URL('../../docs/inspector-call.png', import.meta.url).pathname;

let dev: ChildProcess;
let devUrl: string;
let devLog = '';
let model: FakeModel;
let chrome: { browser: Browser; close(): Promise<void> };
let hook: Awaited<ReturnType<typeof webhookServer>>;
let page: Page;
let callId: string;
let assistantId: string;
const problems: string[] = [];

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${devUrl}${path}`, { method, headers: AUTH, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as T;
}

beforeAll(async () => {
  ensureBuilt();
  // The model books on the customer's first line (a tool call), says what the tool answered, then chats.
  model = await startFakeModel((request) => {
    const messages = request.body.messages as { role: string; content: string | null }[];
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: `Done: ${String(last.content)}`, delayMs: 30 };
    if (!messages.some((m) => m.role === 'tool')) return { toolCalls: [{ name: 'bookAppointment', arguments: { day: 'tuesday' } }], delayMs: 60 };
    return { text: 'Glad to help. Anything else?', delayMs: 40 };
  });
  hook = await webhookServer((req, res) => {
    const message = (JSON.parse(hook.hits.at(-1)?.body ?? '{}') as { message?: { type?: string; toolCallList?: { id: string }[] } }).message;
    const answer = message?.type === 'tool-calls' ? { results: (message.toolCallList ?? []).map((c) => ({ toolCallId: c.id, result: 'Booked for Tuesday at 10:00.' })) } : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  dev = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--speed', '20', '--llm', model.url, '--llm-model', 'fake-llm'], { stdio: ['ignore', 'pipe', 'pipe'] });
  dev.stderr?.on('data', (d: Buffer) => (devLog += d.toString()));
  devUrl = await new Promise<string>((resolve, reject) => {
    dev.stdout?.on('data', (d: Buffer) => resolve(d.toString().trim()));
    dev.on('exit', (code) => reject(new Error(`voice dev exited ${code}: ${devLog}`)));
  });
  const assistant = await rest<{ id: string }>('POST', '/assistant', {
    name: 'Booker',
    firstMessage: 'Hello, Booker here.',
    server: { url: hook.url },
    model: {
      provider: 'openai',
      model: 'gpt-4o-mini',
      messages: [{ role: 'system', content: SYSTEM }],
      tools: [{ type: 'function', function: { name: 'bookAppointment', description: 'Books a visit.', parameters: { type: 'object', properties: { day: { type: 'string' } } } } }],
    },
  });
  assistantId = assistant.id;
  const call = await rest<{ id: string }>('POST', '/call', { assistantId: assistant.id, customer: { number: '+14155550100' } });
  callId = call.id;
  chrome = await launch();
  page = await chrome.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.route('**/*', (route) => (isLoopback(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await hook?.close();
  await model?.close();
  if (dev && dev.exitCode === null) {
    dev.kill('SIGINT');
    await new Promise((r) => dev.once('exit', r));
  }
});

/** How far the page scrolls sideways (0 when it fits). */
const overflow = (): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** For each column, the distinct left edges of its cells over every row of the table. */
function lefts(selector: string): Promise<number[][]> {
  return page.evaluate((sel) => {
    const rows = [...document.querySelectorAll(`${sel} tr`)].filter((r) => r.children.length > 1);
    const edges: Set<number>[] = [];
    for (const r of rows) [...r.children].forEach((cell, i) => (edges[i] ??= new Set()).add(Math.round(cell.getBoundingClientRect().left)));
    return edges.map((s) => [...s]);
  }, selector);
}

describe('the inspector shows the model side of a call', () => {
  it('shows each turn: the model request with the system prompt, the tool call with arguments and result, the latencies', async () => {
    await page.goto(`${devUrl}/__voice/inspector/#/calls/${callId}`);
    await page.getByRole('heading', { name: 'End-of-call report' }).waitFor({ timeout: 30_000 });
    const turn = page.locator('.turn').first();
    await turn.getByRole('heading', { name: /^Turn 1/ }).waitFor();
    // Collapsed by default: the system prompt shows once the request is opened.
    const request = turn.locator('details.request').first();
    await expect(request.locator('pre.prompt').isVisible()).resolves.toBe(false);
    await request.locator('summary').click();
    await request.locator('pre.prompt', { hasText: SYSTEM }).waitFor();
    // It counts every message the model was sent, the system prompt's among them.
    const sent = ((await model.request(0)).body.messages as unknown[]).length;
    await expect(request.locator('summary').textContent()).resolves.toMatch(new RegExp(`^Model request: ${sent} messages,`));
    await request.getByText('bookAppointment').first().waitFor();
    const tool = turn.locator('.tool').first();
    await expect(tool.textContent()).resolves.toContain('{"day":"tuesday"}');
    await tool.getByText('Booked for Tuesday at 10:00.').waitFor();
    await turn.getByText('Done: Booked for Tuesday at 10:00.').waitFor();
    // Every turn has its latencies, each a number of milliseconds.
    const turns = await page.locator('.turn').count();
    expect(turns).toBeGreaterThan(0);
    for (let i = 0; i < turns; i++) {
      const values = await page.locator('.turn').nth(i).locator('.bar-value').allTextContents();
      expect(values).toHaveLength(4);
      for (const v of values) expect(v).toMatch(/^\d+ ms$/);
    }
    // The tool server's time is in the turn's tool bar; the call's averages are on top.
    await page
      .getByRole('definition')
      .filter({ hasText: /^\d+ ms$/ })
      .first()
      .waitFor();
    if (process.env.SCREENSHOT === '1') {
      await page.setViewportSize({ width: 1280, height: 1500 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: SHOT, fullPage: false });
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('shows a chat with its model request, tool call and latencies in the Chats view', async () => {
    const chat = await rest<{ id: string }>('POST', '/chat', { assistantId, input: 'Book me in, please.' });
    await page.goto(`${devUrl}/__voice/inspector/#/chats`);
    await page.getByRole('link', { name: chat.id.slice(0, 8) }).click();
    await page.getByRole('heading', { name: /^Chat / }).waitFor();
    const turn = page.locator('.turn').first();
    await turn.locator('details.request summary').first().click();
    await turn.locator('pre.prompt', { hasText: SYSTEM }).first().waitFor({ state: 'visible' });
    await expect(turn.locator('.tool').first().textContent()).resolves.toContain('{"day":"tuesday"}');
    await turn.locator('.tool').getByText('Booked for Tuesday at 10:00.').waitFor();
    expect(await turn.locator('.bar-value').allTextContents()).toHaveLength(4);
    await page.locator('.transcript').getByText('Done: Booked for Tuesday at 10:00.').waitFor();
  });

  it('fits every view into 375 px, and lines up the columns of Deliveries and Requests', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const view of ['#/calls', `#/calls/${callId}`, '#/chats', '#/deliveries', '#/requests', '#/resources']) {
      await page.goto(`${devUrl}/__voice/inspector/${view}`);
      await page.locator('main h1').first().waitFor();
      if (view === '#/deliveries' || view === '#/requests') await page.locator('.rows-table tbody tr').nth(2).waitFor();
      if (view === `#/calls/${callId}`) await page.locator('.turn').first().waitFor();
      expect(await overflow(), `${view} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
      if (view === '#/deliveries' || view === '#/requests') {
        const columns = await lefts('.rows-table');
        expect(columns.length).toBe(6);
        for (const c of columns) expect(c, `${view}: a column starts at several x positions`).toHaveLength(1);
      }
    }
    expect(problems).toEqual([]);
  });
});
