// The `voice dev` inspector in real Chromium, against `voice dev --speed 20` and a loopback server
// standing in for the developer's: calls appear live, a call's view tells its story, deliveries
// replay, a refused request shows its message, a call starts from the page (and from the command
// its empty list prints, run as printed), a call on the developer's own voice server and knowledge
// base shows those exchanges; nothing leaves 127.0.0.1 and the page logs no error.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureBuilt } from '../../cli/test/build.js';
import { startVoiceServer, type VoiceServer } from '#core/emulator/calls/stack/voice-server.test-support';
import { startFakeModel, type FakeModel } from '#core/model/testing';
import { runPrinted, voiceOnPath } from '../../cli/test/printed.js';
import { isLoopback, launch, webhookServer } from './demo-harness.js';

const BIN = new URL('../../bin/voice.js', import.meta.url).pathname;
const AUTH = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

let dev: ChildProcess;
let devUrl: string;
let devLog = '';
let chrome: { browser: Browser; close(): Promise<void> };
let hook: Awaited<ReturnType<typeof webhookServer>>;
let voiceServer: VoiceServer;
let model: FakeModel;
let page: Page;
let assistantId: string;
const requests: string[] = [];
const problems: string[] = [];
const home = mkdtempSync(join(tmpdir(), 'voice-inspector-'));

function types(): string[] {
  return hook.hits.map((h) => (JSON.parse(h.body) as { message: { type: string } }).message.type);
}

async function rest<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${devUrl}${path}`, { method, headers: { ...AUTH, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

beforeAll(async () => {
  ensureBuilt();
  hook = await webhookServer((req, res) => {
    const last = hook.hits.at(-1)?.body ?? '{}';
    const message = (JSON.parse(last) as { message?: { type?: string; assistant?: { name?: string }; toolCallList?: { id: string; function: { arguments: string } }[] } }).message;
    const answer =
      message?.type === 'knowledge-base-request'
        ? { documents: [{ content: 'Opening hours: nine to five, Monday to Saturday.', similarity: 0.92 }] }
        : message?.type === 'tool-calls'
          ? { results: (message.toolCallList ?? []).map((c) => ({ toolCallId: c.id, name: 'bookAppointment', result: `Booked for ${(JSON.parse(c.function.arguments) as { day: string }).day}.` })) }
          : {};
    // The "Slow" assistant's tool server takes its time, so its call is still running when the page ends it.
    const delay = message?.type === 'tool-calls' && message.assistant?.name === 'Slow' ? 5000 : 0;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)), delay);
  });
  // The developer's voice server waits 150 ms before its first byte (the latency the view shows).
  voiceServer = await startVoiceServer(() => ({ delayMs: 150 }));
  model = await startFakeModel(() => ({ text: 'We open at nine.' }));
  dev = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--speed', '20'], { stdio: ['ignore', 'pipe', 'pipe'] });
  dev.stderr?.on('data', (d: Buffer) => (devLog += d.toString()));
  devUrl = await new Promise<string>((resolve, reject) => {
    dev.stdout?.on('data', (d: Buffer) => resolve(d.toString().trim()));
    dev.on('exit', (code) => reject(new Error(`voice dev exited ${code}: ${devLog}`)));
  });
  const created = await rest<{ id: string }>('POST', '/assistant', {
    name: 'Booker',
    firstMessage: 'Hello, Booker here.',
    server: { url: hook.url, headers: { 'x-secret': 's3cret-value' } },
    model: {
      provider: 'openai',
      model: 'gpt-4o-mini',
      tools: [{ type: 'function', function: { name: 'bookAppointment', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday', 'tuesday'] } } } } }],
    },
  });
  assistantId = created.body.id;
  chrome = await launch();
  page = await chrome.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.route('**/*', (route) => (isLoopback(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await Promise.all([hook?.close(), voiceServer?.close(), model?.close()]);
  rmSync(home, { recursive: true, force: true });
  if (dev && dev.exitCode === null) {
    dev.kill('SIGINT');
    await new Promise((r) => dev.once('exit', r));
  }
});

describe('voice dev inspector', () => {
  let callId: string;

  it('is announced in the banner and served under /__voice/inspector/', async () => {
    expect(devLog).toContain(`Inspector: ${devUrl}/__voice/inspector/`);
    await page.goto(`${devUrl}/__voice/inspector/`);
    await page.getByRole('heading', { name: 'Calls' }).waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
  });

  it('names, while it has no call, a command that creates one, which runs as printed on a machine without a key', async () => {
    await page.getByText('No calls yet.').waitFor();
    const command = String(await page.locator('p.muted code').textContent());
    expect(command).toContain(`--local --api-url ${devUrl} `);
    const r = await runPrinted(command, { PATH: voiceOnPath(join(home, 'bin')), HOME: home, XDG_CONFIG_HOME: join(home, 'xdg'), NO_COLOR: '1' });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const id = /^id\s+(\S+)$/m.exec(String(r.stdout))?.[1] as string;
    await page.getByRole('link', { name: id.slice(0, 8) }).waitFor({ timeout: 10_000 });
  });

  it('shows a call created by REST without a reload', async () => {
    const created = await rest<{ id: string }>('POST', '/call', { assistantId, customer: { number: '+14155550100' } });
    callId = created.body.id;
    await page.getByRole('link', { name: callId.slice(0, 8) }).waitFor({ timeout: 10_000 });
  });

  it("shows the call's first message, its tool call with the result and the ended reason", async () => {
    await page.getByRole('link', { name: callId.slice(0, 8) }).click();
    await page.getByRole('heading', { name: /^Call / }).waitFor();
    const transcript = page.locator('.transcript');
    await transcript.getByText('Hello, Booker here.').waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'End-of-call report' }).waitFor({ timeout: 20_000 });
    const tool = page.locator('.tool').first();
    await expect(tool.textContent()).resolves.toContain('bookAppointment');
    await tool.getByText('Booked for monday.').waitFor();
    await expect(tool.textContent()).resolves.toContain(hook.url);
    const report = page.locator('section', { has: page.getByRole('heading', { name: 'End-of-call report' }) });
    await report.getByText('customer-ended-call').waitFor();
    await report.getByText(/^Summary:/).waitFor();
    await report.locator('audio').waitFor({ state: 'attached' });
    // Final lines replaced their partial ones.
    expect(await page.locator('.transcript .partial').count()).toBe(0);
    expect(await page.content()).not.toContain('s3cret-value');
  });

  it("plays the call's recording with its transcript following it, and marks the turn timeline", async () => {
    // A call where the customer presses keys (a mark on the turn timeline); it ends once they say nothing more.
    const keyed = (await rest<{ id: string }>('POST', '/call', { assistantId, customer: { number: '+14155550100' } })).body.id;
    await expect.poll(async () => (await rest('POST', `/__voice/calls/${keyed}/say`, { dtmf: '12#' })).status, { timeout: 15_000, interval: 50 }).toBe(202);
    await expect.poll(async () => (await rest<{ status: string }>('GET', `/call/${keyed}`)).body.status, { timeout: 30_000 }).toBe('ended');
    await page.goto(`${devUrl}/__voice/inspector/#/calls/${keyed}`);
    const report = page.locator('section', { has: page.getByRole('heading', { name: 'End-of-call report' }) });
    const lines = report.getByRole('list', { name: 'Transcript following the recording' });
    await lines.getByText('Hello, Booker here.').waitFor({ timeout: 15_000 });
    // The call's own timeline (served beside the recording) is what the view draws.
    const { timeline } = (await rest<{ timeline: { events: Array<{ type: string; at: number; text?: string; source?: string }> } }>('GET', `/__voice/calls/${keyed}/timeline`)).body;
    const said = timeline.events.filter((e) => e.type === 'speech');
    expect(await lines.locator('li').count()).toBe(said.length);
    const marks = timeline.events.filter((e) => ['interruption', 'pause', 'keys'].includes(e.type) || (e.type === 'speech' && e.source === 'hook'));
    expect(marks.length).toBeGreaterThan(0);
    const turns = report.getByRole('group', { name: 'Turn timeline' });
    expect(await turns.locator('button.mark').count()).toBe(marks.length);
    await turns.getByRole('button', { name: /pressed 12#/ }).waitFor();
    // A click on the last line plays from it: the line being said is highlighted as it plays.
    const second = said.at(-1) as { at: number; text: string };
    await lines.locator('li').last().getByRole('button').click();
    await expect.poll(() => report.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThanOrEqual(second.at);
    await lines.locator('li[aria-current="true"]').first().waitFor({ timeout: 10_000 });
    await report.locator('audio').evaluate((a: HTMLAudioElement) => a.pause());
    await page.goto(`${devUrl}/__voice/inspector/#/calls/${callId}`);
  });

  it("shows a call's exchanges with the developer's voice server and knowledge base on its turn timeline", async () => {
    const stack = await rest<{ id: string }>('POST', '/assistant', {
      name: 'Stack',
      firstMessage: 'Hello, Stack here.',
      server: { url: hook.url },
      voice: { provider: 'custom-voice', server: { url: voiceServer.url, timeoutSeconds: 5 } },
      model: { provider: 'custom-llm', url: model.url, model: 'fake', knowledgeBase: { provider: 'custom-knowledge-base', server: { url: hook.url, timeoutSeconds: 5 } } },
    });
    const id = (await rest<{ id: string }>('POST', '/call', { assistantId: stack.body.id, customer: { number: '+14155550100' } })).body.id;
    await expect.poll(async () => (await rest<{ status: string }>('GET', `/call/${id}`)).body.status, { timeout: 30_000 }).toBe('ended');
    const { timeline } = (await rest<{ timeline: { events: Array<{ type: string; text?: string; firstByteMs?: number }> } }>('GET', `/__voice/calls/${id}/timeline`)).body;
    const voiced = timeline.events.find((e) => e.type === 'voice' && e.text === 'Hello, Stack here.');
    expect(voiced?.firstByteMs).toBeGreaterThanOrEqual(150);
    await page.goto(`${devUrl}/__voice/inspector/#/calls/${id}`);
    const rows = page.getByRole('list', { name: 'Voice stack exchanges' });
    const voice = rows.locator('li', { hasText: '"Hello, Stack here."' }).first();
    await voice.waitFor({ timeout: 15_000 });
    await expect(voice.textContent()).resolves.toContain(`first byte after ${voiced?.firstByteMs} ms`);
    // The knowledge base's documents open on a click on its row.
    const kb = rows.locator('li', { hasText: '1 document for the model' }).first();
    await kb.getByText('1 document for the model').click();
    await kb.getByText(/similarity 0\.92: Opening hours: nine to five/).waitFor();
    // Each exchange is a mark on the turn timeline that names it on hover.
    const lane = page.getByRole('group', { name: 'Turn timeline' }).locator('.lane.stack');
    await lane.locator('[title^="Voice: \\"Hello, Stack here.\\""]').waitFor({ state: 'attached' });
    await lane.locator('[title^="Knowledge base: 1 document"]').first().waitFor({ state: 'attached' });
  });

  it('says nothing was said on a call that ended without a word (a busy line)', async () => {
    const busy = await rest<{ id: string }>('POST', '/call', { assistantId, customer: { number: '+15550100002' } });
    await page.goto(`${devUrl}/__voice/inspector/#/calls/${busy.body.id}`);
    await page
      .locator('section', { has: page.getByRole('heading', { name: 'Transcript' }) })
      .getByText(/^Nothing was said: the call ended before it was answered \(customer-busy\)/)
      .waitFor({ timeout: 15_000 });
    // Its report reached the server before the next test counts reports.
    await expect.poll(() => hook.hits.some((h) => h.body.includes(busy.body.id) && h.body.includes('"end-of-call-report"')), { timeout: 10_000 }).toBe(true);
    await page.goto(`${devUrl}/__voice/inspector/#/calls/${callId}`);
    await page.locator('.transcript').getByText('Hello, Booker here.').waitFor();
  });

  it('lists the deliveries, and Replay reaches the server again', async () => {
    await page.goto(`${devUrl}/__voice/inspector/#/deliveries?call=${callId}`);
    const rows = page.locator('.rows-table tbody tr');
    await rows.filter({ hasText: 'status-update' }).first().waitFor();
    const report = rows.filter({ hasText: 'end-of-call-report' }).first();
    await report.waitFor();
    const before = types().filter((t) => t === 'end-of-call-report').length;
    await report.getByRole('button').first().click();
    // The open row's details (the list re-orders when the replay arrives, newest first).
    const detail = page.locator('.detail');
    await detail.getByRole('button', { name: 'Replay' }).click();
    await detail.getByText(/Replayed as d\d+: 200/).waitFor();
    expect(types().filter((t) => t === 'end-of-call-report').length).toBe(before + 1);
    await page.locator('.rows-table tbody tr', { hasText: 'replay' }).first().waitFor();
    expect(await page.content()).not.toContain('s3cret-value');
  });

  it('shows a bad-body request as 400 with its message and its body', async () => {
    const bad = await rest('POST', '/assistant', { name: 'x', colour: 'red' }, { 'user-agent': 'inspector-e2e/1.0' });
    expect(bad.status).toBe(400);
    await page.goto(`${devUrl}/__voice/inspector/#/requests`);
    const row = page.locator('.rows-table tbody tr', { hasText: 'inspector-e2e/1.0' }).first();
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/POST\s*\/assistant\s*400/);
    // The message and, once opened, the bodies sit in the row under it.
    const under = row.locator('xpath=following-sibling::tr[1]');
    await under.getByText('property colour should not exist').waitFor();
    await row.getByRole('link').click();
    await page.locator('.rows-table pre', { hasText: '"colour"' }).waitFor();
  });

  it('starts a call from an assistant', async () => {
    await page.goto(`${devUrl}/__voice/inspector/#/resources/assistant/${assistantId}`);
    await page.getByRole('button', { name: 'Start a call' }).click();
    await page.waitForURL(/#\/calls\/[0-9a-f-]{36}$/);
    const id = decodeURIComponent(new URL(page.url()).hash.split('/').pop() as string);
    expect(id).not.toBe(callId);
    const call = await rest<{ assistantId: string; customer: { number: string } }>('GET', `/call/${id}`);
    expect(call.body).toMatchObject({ assistantId, customer: { number: '+14155550100' } });
    await page.locator('.transcript').getByText('Hello, Booker here.').waitFor({ timeout: 15_000 });
  });

  it('ends a running call with its button', async () => {
    const slow = await rest<{ id: string }>('POST', '/assistant', {
      name: 'Slow',
      firstMessage: 'Hello, Slow here.',
      server: { url: hook.url },
      model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'lookUp', parameters: { type: 'object', properties: {} } } }] },
    });
    const call = await rest<{ id: string }>('POST', '/call', { assistantId: slow.body.id, customer: { number: '+14155550100' } });
    await page.goto(`${devUrl}/__voice/inspector/#/calls/${call.body.id}`);
    // The tool call is waiting for its server: the call is in progress.
    await page.locator('.timeline').getByText('in-progress').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'End call' }).click();
    await page.getByText('Call ended.').waitFor();
    const report = page.locator('section', { has: page.getByRole('heading', { name: 'End-of-call report' }) });
    await report.getByText('manually-canceled').waitFor({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'End call' }).isDisabled()).resolves.toBe(true);
  });

  it('says a call is scripted when no model is configured, and speaks as the customer from its say box', async () => {
    // Named Slow: the stand-in server holds its tool call for 5 s, so the call is still running when the line is said.
    const plain = await rest<{ id: string }>('POST', '/assistant', {
      name: 'Slow',
      firstMessage: 'Hello, Plain here.',
      server: { url: hook.url },
      model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'lookUp', parameters: { type: 'object', properties: {} } } }] },
    });
    const call = await rest<{ id: string }>('POST', '/call', { assistantId: plain.body.id, customer: { number: '+14155550100' } });
    await page.goto(`${devUrl}/__voice/inspector/#/calls/${call.body.id}`);
    const notes = page.locator('section', { has: page.getByRole('heading', { name: 'Warnings and errors' }) });
    await notes.getByText(/No model is configured, so this conversation was scripted/).waitFor({ timeout: 10_000 });
    await page.locator('.timeline').getByText('in-progress').waitFor({ timeout: 10_000 });
    await page.getByLabel('Say as the customer').fill('Can I pay by card?');
    await page.getByRole('button', { name: 'Say', exact: true }).click();
    await page.getByText('Said. The call is yours now: the scripted customer says nothing more').waitFor();
    await page.locator('.transcript').getByText('Can I pay by card?').waitFor({ timeout: 15_000 });
    // From that line on only the developer speaks as the customer; 30 s (simulated) of silence end the call.
    const facts = page.locator('dl.facts');
    await facts.getByText('silence-timed-out').waitFor({ timeout: 30_000 });
    const ended = await rest<{ messages: { role: string; message?: string }[] }>('GET', `/call/${call.body.id}`);
    const mine = ended.body.messages.findIndex((m) => m.role === 'user' && m.message === 'Can I pay by card?');
    expect(mine).toBeGreaterThanOrEqual(0);
    expect(ended.body.messages.slice(mine + 1).filter((m) => m.role === 'user')).toEqual([]);
  });

  it('never left 127.0.0.1 and logged no error', () => {
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((u) => !isLoopback(u))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
