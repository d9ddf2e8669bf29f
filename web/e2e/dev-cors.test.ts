// `voice dev` against web pages, in real Chromium: a page on a made-up, non-loopback host name
// (mapped to 127.0.0.1 with --host-resolver-rules in a second browser) can neither read nor change
// the emulator; the same page served from http://127.0.0.1:PORT can read it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureBuilt } from '../../cli/test/build.js';
import { launch } from './demo-harness.js';

const BIN = new URL('../../bin/voice.js', import.meta.url).pathname;
const HOSTILE = 'prizes.example.test';

let dev: ChildProcess;
let devUrl: string;
let devLog = '';
let pageServer: Server;
let pagePort: number;
let plain: { browser: Browser; close(): Promise<void> };
let mapped: { browser: Browser; close(): Promise<void> };

/** A page that tries to read the emulator's assistants and to create one. */
function probePage(emulator: string): string {
  return `<!doctype html><meta charset="utf-8"><title>probe</title><script>
window.probe = (async () => {
  const out = {};
  try { const r = await fetch('${emulator}/assistant', { headers: { authorization: 'Bearer any-key' } }); out.read = { status: r.status, body: await r.json() }; } catch (e) { out.read = 'blocked'; }
  try { const r = await fetch('${emulator}/assistant', { method: 'POST', headers: { authorization: 'Bearer any-key', 'content-type': 'application/json' }, body: '{"name":"planted"}' }); out.write = r.status; } catch (e) { out.write = 'blocked'; }
  try { await fetch('${emulator}/assistant', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"name":"planted"}' }); out.simple = 'sent'; } catch (e) { out.simple = 'blocked'; }
  return out;
})();
</script>`;
}

async function assistants(): Promise<{ name?: string }[]> {
  return (await (await fetch(`${devUrl}/assistant`, { headers: { authorization: 'Bearer k' } })).json()) as { name?: string }[];
}

beforeAll(async () => {
  ensureBuilt();
  dev = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--seed'], { stdio: ['ignore', 'pipe', 'pipe'] });
  dev.stderr?.on('data', (d: Buffer) => (devLog += d.toString()));
  devUrl = await new Promise<string>((resolve, reject) => {
    dev.stdout?.on('data', (d: Buffer) => resolve(d.toString().trim()));
    dev.on('exit', (code) => reject(new Error(`voice dev exited ${code}: ${devLog}`)));
  });
  pageServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(probePage(devUrl)));
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pagePort = (pageServer.address() as AddressInfo).port;
  [plain, mapped] = await Promise.all([launch(), launch({ args: [`--host-resolver-rules=MAP ${HOSTILE} 127.0.0.1`] })]);
}, 120_000);

afterAll(async () => {
  await Promise.all([plain?.close(), mapped?.close(), new Promise((r) => pageServer?.close(r))]);
  if (dev && dev.exitCode === null) {
    dev.kill('SIGINT');
    await new Promise((r) => dev.once('exit', r));
  }
});

async function probe(browser: Browser, origin: string): Promise<Record<string, unknown>> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    return await page.evaluate(() => (window as unknown as { probe: Promise<Record<string, unknown>> }).probe);
  } finally {
    await page.close();
  }
}

describe('voice dev and web pages', () => {
  it('says in its banner which pages may call it', () => {
    expect(devLog).toContain('Browser: pages on http://127.0.0.1:*, http://localhost:*, http://[::1]:* may call it (more with --cors-origin ORIGIN)');
    expect(devLog).toContain('POST /call/web, /chat/web and /chat/web/responses answer any origin');
  });

  it('a page on a non-loopback host name can neither read nor change it', async () => {
    const before = await assistants();
    const result = await probe(mapped.browser, `http://${HOSTILE}:${pagePort}`);
    expect(result).toEqual({ read: 'blocked', write: 'blocked', simple: 'sent' });
    // The emulator itself refused them (not only the browser): preflights and the simple post got 403.
    expect(devLog).toMatch(/OPTIONS \/assistant 403/);
    expect(devLog).toMatch(/POST \/assistant 403/);
    const after = await assistants();
    expect(after.length).toBe(before.length);
    expect(after.some((a) => a.name === 'planted')).toBe(false);
  });

  it('a page on http://127.0.0.1:PORT can read and change it', async () => {
    const result = await probe(plain.browser, `http://127.0.0.1:${pagePort}`);
    expect(result.read).toMatchObject({ status: 200 });
    expect((result.read as { body: unknown[] }).body.length).toBeGreaterThan(0);
    expect(result.write).toBe(201);
  });
});
