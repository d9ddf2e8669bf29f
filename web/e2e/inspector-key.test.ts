// The inspector on `voice dev --api-key KEY`: the page never shows the key; it reads the live
// record without one, asks for the key to read and change objects, and works once it is given.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureBuilt } from '../../cli/test/build.js';
import { launch } from './demo-harness.js';

const BIN = new URL('../../bin/voice.js', import.meta.url).pathname;
const KEY = 'sk-inspector-e2e-key';
let dev: ChildProcess;
let devUrl: string;
let chrome: { browser: Browser; close(): Promise<void> };

beforeAll(async () => {
  ensureBuilt();
  dev = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--speed', '20', '--api-key', KEY, '--quiet'], { stdio: ['ignore', 'pipe', 'ignore'] });
  devUrl = await new Promise<string>((resolve, reject) => {
    dev.stdout?.on('data', (d: Buffer) => resolve(d.toString().trim()));
    dev.on('exit', (code) => reject(new Error(`voice dev exited ${code}`)));
  });
  await fetch(`${devUrl}/assistant`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Keyed' }) });
  chrome = await launch();
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  if (dev && dev.exitCode === null) {
    dev.kill('SIGINT');
    await new Promise((r) => dev.once('exit', r));
  }
});

it('asks for the key, never shows it, and reads objects once it is given', async () => {
  const page = await chrome.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${devUrl}/__voice/inspector/#/resources/assistant`);
  const input = page.getByLabel(/started with --api-key/);
  await input.waitFor();
  await expect(input.getAttribute('type')).resolves.toBe('password');
  await input.fill(KEY);
  await page.getByRole('button', { name: 'Use key' }).click();
  await page.getByRole('link', { name: 'Keyed' }).waitFor();
  await expect(page.getByLabel(/started with --api-key/).count()).resolves.toBe(0);
  expect(await page.content()).not.toContain(KEY);
  expect(errors).toEqual([]);
  await page.close();
});
