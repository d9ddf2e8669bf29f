// The inspector's Campaigns view in real Chromium against `voice dev`: a campaign dials, the list
// shows its progress, its view counts its calls and lists its contacts with their calls, live.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureBuilt } from '../../cli/test/build.js';
import { isLoopback, launch } from './demo-harness.js';

const BIN = new URL('../../bin/voice.js', import.meta.url).pathname;
const AUTH = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

let dev: ChildProcess;
let devUrl: string;
let devLog = '';
let chrome: { browser: Browser; close(): Promise<void> };
let page: Page;
const problems: string[] = [];

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${devUrl}${path}`, { method, headers: AUTH, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as T;
}

beforeAll(async () => {
  ensureBuilt();
  dev = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--speed', '200'], { stdio: ['ignore', 'pipe', 'pipe'] });
  dev.stderr?.on('data', (d: Buffer) => (devLog += d.toString()));
  devUrl = await new Promise<string>((resolve, reject) => {
    dev.stdout?.on('data', (d: Buffer) => resolve(d.toString().trim()));
    dev.on('exit', (code) => reject(new Error(`voice dev exited ${code}: ${devLog}`)));
  });
  chrome = await launch();
  page = await chrome.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.route('**/*', (route) => (isLoopback(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  if (dev && dev.exitCode === null) {
    dev.kill('SIGINT');
    await new Promise((r) => dev.once('exit', r));
  }
});

it('lists a campaign and shows its counters and contacts as it dials them', async () => {
  const number = await rest<{ id: string }>('POST', '/phone-number', { provider: 'vapi', name: 'Line' });
  const assistant = await rest<{ id: string }>('POST', '/assistant', { name: 'Caller', firstMessage: 'Hi, Acme here.' });
  const customers = ['+14155550100', '+14155550101', '+14155550102'].map((n, i) => ({ number: n, name: `Lead ${i}` }));
  const campaign = await rest<{ id: string }>('POST', '/v2/campaign', { name: 'Spring leads', assistantId: assistant.id, phoneNumberId: number.id, maxConcurrency: 2, customers });
  await page.goto(`${devUrl}/__voice/inspector/#/campaigns`);
  await page.getByRole('link', { name: 'Spring leads' }).click();
  await page.getByRole('heading', { name: /Spring leads/ }).waitFor();
  // Live: the view reads again as the campaign changes, until every contact has completed.
  await expect.poll(async () => page.getByRole('cell', { name: 'completed' }).count(), { timeout: 30_000 }).toBe(3);
  await expect.poll(async () => page.locator('dt:has-text("Calls ended") + dd').innerText(), { timeout: 10_000 }).toBe('3');
  expect(await page.locator('dd', { hasText: 'campaign.ended.success' }).count()).toBe(1);
  const callLinks = await page.locator('td a.mono').allInnerTexts();
  expect(callLinks).toHaveLength(3);
  await page.goto(`${devUrl}/__voice/inspector/#/campaigns`);
  await expect.poll(async () => page.getByRole('row', { name: /Spring leads/ }).innerText(), { timeout: 10_000 }).toContain('3 of 3 done');
  expect(campaign.id).toBeTruthy();
  expect(problems).toEqual([]);
}, 90_000);
