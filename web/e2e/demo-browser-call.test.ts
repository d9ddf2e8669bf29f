// "Test in Browser" in real Chromium against `voice demo`: a real call on the embedded emulator
// without keys, the not-configured explanation, the microphone-permission text, and a failing
// start that logs and returns to idle.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { DemoServer } from '../../cli/commands/demo/server.js';
import { demo, isLoopback, launch, openPage, visitorsFile, webhookServer } from './demo-harness.js';

const MICROPHONE = 'Microphone access is required. Please allow microphone permissions in your browser and try again.';

let browser: Browser;
let closeBrowser: () => Promise<void>;
let fixtures: ReturnType<typeof visitorsFile>;
let bare: DemoServer;
let keyed: DemoServer;
let configured: DemoServer;
let api: Awaited<ReturnType<typeof webhookServer>>;
let releaseApi: () => void = () => undefined;
const cacheDir = mkdtempSync(join(tmpdir(), 'voice-demo-sentry-cache-'));
const allRequests: string[] = [];

beforeAll(async () => {
  fixtures = visitorsFile();
  // Stands in for the platform API: holds POST /call/web until released, then fails it.
  api = await webhookServer((_req, res) => {
    const held = new Promise<void>((resolve) => (releaseApi = resolve));
    void held.then(() => res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"no calls today"}'));
  });
  const launched = await launch({ microphone: 'denied' });
  browser = launched.browser;
  closeBrowser = launched.close;
  const flags = { webhookUrl: 'http://127.0.0.1:9/unused' };
  const apiUrl = api.url.replace(/\/hook$/, '');
  [bare, keyed, configured] = await Promise.all([
    demo(fixtures.file, { flags }),
    // A server key only: Call Me would go to the hosted platform, and nothing can run browser calls.
    demo(fixtures.file, { flags: { ...flags, apiKey: 'sk-test-server-only' } }),
    // A loopback DSN: error reporting loads, and anything it might send stays on this machine.
    // A DSN changes Vite's dependency set, so this demo gets a cache of its own (no tug of war
    // with demos other test files run at the same time).
    demo(fixtures.file, {
      flags: { ...flags, publicKey: 'pk_test', assistantId: 'asst_test', apiUrl, sentryDsn: 'http://public@127.0.0.1:9/1' },
      env: { HOME: tmpdir(), XDG_CONFIG_HOME: join(tmpdir(), 'voice-e2e-no-profile'), VOICE_DEMO_CACHE_DIR: cacheDir },
    }),
  ]);
});

afterAll(async () => {
  releaseApi();
  await Promise.all([bare?.close(), keyed?.close(), configured?.close(), api?.close(), closeBrowser?.()]);
  fixtures?.cleanup();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function visit(server: DemoServer, permissions: string[] = []) {
  const context = await browser.newContext({ permissions });
  const { page, requests, consoleLines } = await openPage(context);
  await page.goto(`${server.origin}/acme`);
  await page.getByRole('button', { name: 'Test in Browser' }).waitFor();
  return { page, consoleLines, requests, close: async () => (allRequests.push(...requests), await context.close()) };
}

/** The emulator's web calls, newest first. */
async function webCalls(server: DemoServer): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${server.localBrowserCalls}/call?limit=100`, { headers: { authorization: 'Bearer any' } });
  return ((await res.json()) as Array<Record<string, unknown>>).filter((c) => c.type === 'webCall');
}

describe('Test in Browser', () => {
  it('runs a real call on the embedded emulator without keys: Connecting..., Stop Call, then idle', async () => {
    expect(bare.localBrowserCalls).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const before = (await webCalls(bare)).length;
    const { page, requests, consoleLines, close } = await visit(bare, ['microphone']);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Connecting...' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Stop Call' }).count(), { timeout: 15_000 }).toBe(1);
    const calls = await webCalls(bare);
    expect(calls.length).toBe(before + 1);
    const call = calls.find((c) => c.status === 'in-progress') as { id: string; assistant: { firstMessage: string; model: { messages: unknown[] } } };
    // The visitor's first message and system prompt, as the spec's overrides.
    expect(call.assistant.firstMessage).toBe('Hello, this is Acme.');
    expect(call.assistant.model).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', maxTokens: 250, messages: [{ role: 'system', content: 'You are the Acme Corp assistant.' }] });
    // The greeting is heard in full (about 1.6 s) before the visitor stops the call.
    await page.waitForTimeout(4000);
    await page.getByRole('button', { name: 'Stop Call' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Test in Browser' }).count()).toBe(1);
    await expect.poll(async () => (await webCalls(bare)).find((c) => c.id === call.id)?.status, { timeout: 10_000 }).toBe('ended');
    const ended = (await webCalls(bare)).find((c) => c.id === call.id) as { endedReason: string; artifact: { transcript: string } };
    expect(ended.endedReason).toBe('customer-ended-call');
    expect(ended.artifact.transcript).toContain('AI: Hello, this is Acme.');
    expect(await page.getByRole('alert').count()).toBe(0);
    // daily-js is never loaded for the emulator's calls.
    expect(requests.filter((u) => /daily/i.test(u) && !u.includes('/core/webcall/daily-transport.ts'))).toEqual([]);
    expect(consoleLines.filter((line) => /Browser call failed/.test(line))).toEqual([]);
    await close();
  });

  it('shows the microphone text when the permission is refused on the embedded emulator too', async () => {
    const before = (await webCalls(bare)).length;
    const { page, close } = await visit(bare);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe(MICROPHONE);
    expect(await page.getByRole('button', { name: 'Test in Browser' }).isVisible()).toBe(true);
    expect((await webCalls(bare)).length).toBe(before);
    await close();
  });

  it('explains what to set when no public key and assistant id are configured and no emulator runs the calls', async () => {
    expect(keyed.localBrowserCalls).toBeUndefined();
    const { page, close } = await visit(keyed);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toContain('VOICE_PUBLIC_KEY');
    expect(await alert.innerText()).toContain('VOICE_ASSISTANT_ID');
    expect(await page.getByRole('button', { name: 'Test in Browser' }).isVisible()).toBe(true);
    await close();
  });

  it('shows the microphone text when the permission is refused, and resets', async () => {
    const before = api.hits.length;
    const { page, requests, close } = await visit(configured);
    // With a DSN configured, error reporting is loaded (lazily, after the page).
    await expect.poll(() => requests.some((u) => /sentry/i.test(u))).toBe(true);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe(MICROPHONE);
    expect(await page.getByRole('button', { name: 'Test in Browser' }).isVisible()).toBe(true);
    expect(api.hits.length).toBe(before);
    await close();
  });

  it('reads Connecting... while starting, and a failed start is logged and resets to idle', async () => {
    const { page, consoleLines, close } = await visit(configured, ['microphone']);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Connecting...' }).count()).toBe(1);
    // The call client's modules load on the click (Vite transforms them on first request): on a
    // busy machine the request may take seconds to leave.
    await expect.poll(() => api.hits.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const sent = JSON.parse(api.hits.at(-1)!.body) as Record<string, unknown>;
    expect(sent).toMatchObject({
      assistantId: 'asst_test',
      assistantOverrides: {
        firstMessage: 'Hello, this is Acme.',
        model: { provider: 'openai', model: 'gpt-4o-mini', emotionRecognitionEnabled: true, maxTokens: 250, messages: [{ role: 'system', content: 'You are the Acme Corp assistant.' }] },
      },
    });
    releaseApi();
    await expect.poll(() => page.getByRole('button', { name: 'Test in Browser' }).count(), { timeout: 15_000 }).toBe(1);
    expect(consoleLines.some((line) => line.includes('Browser call failed'))).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    await close();
  });

  it('goes active on call-start, reads Stop Call, and pressing it stops the call', async () => {
    // A scripted call client stands in for the real one (its media needs the internet): it
    // records what the page asks for and emits the provider's events.
    const { page, close } = await visit(configured, ['microphone']);
    await page.route('**/core/webcall/index.ts*', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `export class WebCall {
          constructor(key, base) { this.l = {}; this.state = 'idle'; window.__webcall = { key, base, stops: 0 }; }
          on(e, f) { (this.l[e] ??= []).push(f); return this; }
          off(e, f) { this.l[e] = (this.l[e] ?? []).filter((g) => g !== f); return this; }
          emit(e, ...p) { for (const f of this.l[e] ?? []) f(...p); }
          go(s) { const was = this.state; this.state = s; this.emit('state', s, was); }
          async start(assistant, overrides) { Object.assign(window.__webcall, { assistant, overrides }); this.go('starting'); this.go('active'); setTimeout(() => this.emit('call-start'), 50); return { id: 'call_1' }; }
          async stop() { window.__webcall.stops++; if (this.state === 'idle') return; this.go('idle'); this.emit('call-end'); }
          async dispose() { await this.stop(); }
        }
        export const loadDaily = async () => ({});`,
      }),
    );
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Stop Call' }).count()).toBe(1);
    const started = await page.evaluate(() => (window as unknown as { __webcall: Record<string, unknown> }).__webcall);
    expect(started).toMatchObject({ key: 'pk_test', assistant: 'asst_test', overrides: { firstMessage: 'Hello, this is Acme.' } });
    await page.getByRole('button', { name: 'Stop Call' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Test in Browser' }).count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __webcall: { stops: number } }).__webcall.stops)).toBe(1);
    await close();
  });

  it('shows the microphone text for a permission error the call client reports, and resets', async () => {
    const { page, close } = await visit(configured, ['microphone']);
    await page.route('**/core/webcall/index.ts*', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `export class WebCall {
          constructor() { this.l = {}; this.state = 'idle'; }
          on(e, f) { (this.l[e] ??= []).push(f); return this; }
          off() { return this; }
          async start() { for (const f of this.l['camera-error'] ?? []) f({ type: 'camera-error', error: { type: 'permissions', msg: 'denied' }, fatal: true }); return null; }
          async stop() {}
          async dispose() {}
        }
        export const loadDaily = async () => ({});`,
      }),
    );
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe(MICROPHONE);
    expect(await page.getByRole('button', { name: 'Test in Browser' }).count()).toBe(1);
    await close();
  });

  it('loads the call client (and daily-js, for hosted calls only) only on hover or focus of the button', async () => {
    for (const server of [configured, bare]) {
      const { page, requests, close } = await visit(server);
      if (server === bare) expect(requests.some((u) => /sentry/i.test(u))).toBe(false);
      const loaded: string[] = [];
      page.on('requestfinished', (req) => void req.response().then((res) => res?.ok() && loaded.push(req.url())));
      await page.waitForTimeout(300);
      // (The error reporter's field filter, core/webcall/errors.ts, loads with Sentry when a DSN is set.)
      expect(loaded.filter((u) => /daily|webcall/.test(u) && !u.includes('/core/webcall/errors.ts'))).toEqual([]);
      await page.getByRole('button', { name: 'Test in Browser' }).hover();
      await expect.poll(() => loaded.some((u) => u.includes('/core/webcall/')), { timeout: 15000 }).toBe(true);
      if (server === configured) await expect.poll(() => loaded.filter((u) => /daily-js/.test(u)).length, { timeout: 15000 }).toBeGreaterThan(0);
      else {
        await page.waitForTimeout(1000);
        expect(loaded.filter((u) => /daily/.test(u) && !u.includes('/core/webcall/daily-transport.ts'))).toEqual([]);
      }
      await close();
    }
  });

  it('never sends a request off this machine', () => {
    expect(allRequests.length).toBeGreaterThan(10);
    expect(allRequests.filter((url) => !isLoopback(url))).toEqual([]);
  });
});
