// The web-call client in real Chromium against the emulator's POST /call/web. Nothing leaves
// loopback: every other request is aborted, as on a machine without internet, so the Daily join
// fails and the page must see call-start-failed at daily-call-join and end up idle and clean.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import type { RunCallOptions, RunCallResult } from './webcall-fixture/entry.js';
import { launch } from './demo-harness.js';
import { serveFixture, type FixtureServer } from './webcall-harness.js';

// daily-js tries its call bundle three times, 3 s apart, before the join fails (about 7 s).
const SLOW = 60_000;

let emulator: Emulator;
let fixture: FixtureServer;
let origin = '';
let served: string[] = [];
let browser: Browser;
let context: BrowserContext;
const blocked: string[] = [];

beforeAll(async () => {
  // Rooms on a Daily domain: these tests are about the Daily path (the emulator's own web calls are
  // joined by the local transport, tested in webcall-local.test.ts). `/vendor/*` on the fixture's
  // server stands for a self-hosted Daily bundle that is missing.
  emulator = await startEmulator({ port: 0, webCallUrlBase: 'https://vapi.daily.co' });
  fixture = await serveFixture();
  ({ origin, served } = fixture);
  ({ browser } = await launch({ microphone: 'allowed' }));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await fixture?.close();
  await emulator?.close();
});

beforeEach(async () => {
  await context?.close();
  context = await browser.newContext();
  // Offline by construction: anything not on loopback is aborted before it leaves the browser.
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || /^(data|blob):/.test(url.protocol)) return route.continue();
    blocked.push(url.href);
    return route.abort('internetdisconnected');
  });
  served.length = 0;
  blocked.length = 0;
});

/** Calls window.runCall in the page (options as JSON: Daily's config types are too deep for evaluate's). */
function evaluateCall(page: Page, options: RunCallOptions): Promise<RunCallResult> {
  return page.evaluate((json) => window.runCall(JSON.parse(json) as RunCallOptions), JSON.stringify(options)) as Promise<RunCallResult>;
}

async function runCall(page: Page, options: Omit<RunCallOptions, 'baseUrl'> = {}): Promise<RunCallResult> {
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => typeof window.runCall === 'function');
  return evaluateCall(page, { baseUrl: emulator.url, ...options });
}

function named(result: RunCallResult, name: string): unknown[] {
  return result.events.filter((event) => event.name === name).map((event) => event.payload);
}

describe('web call in Chromium without internet', () => {
  it(
    'fails at daily-call-join, returns to idle and leaves no media element behind',
    async () => {
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => typeof window.runCall === 'function');
      const before = served.length;
      // daily-js is not part of the page's initial scripts: its chunk is fetched when the call starts.
      expect(served.slice(0, before).some((path) => /daily/i.test(path))).toBe(false);
      const result = await evaluateCall(page, { baseUrl: emulator.url });

      expect(result.result).toBeNull();
      const failed = named(result, 'call-start-failed') as Array<{ stage: string; error: string }>;
      expect(failed).toHaveLength(1);
      expect(failed[0]?.stage).toBe('daily-call-join');
      expect(failed[0]?.error).toMatch(/call object bundle/i);
      const errors = (named(result, 'error') as Array<{ type: string }>).map((error) => error.type);
      expect(errors).toContain('daily-call-join-error');
      expect(errors.at(-1)).toBe('start-method-error');
      const progress = (named(result, 'call-start-progress') as Array<{ stage: string; status: string }>).map((event) => `${event.stage}:${event.status}`);
      expect(progress).toContain('web-call-creation:completed');
      expect(progress).toContain('daily-call-object-creation:completed');
      expect(progress.at(-1)).toBe('daily-call-join:failed');
      expect(result.state).toBe('idle');
      expect(result.states).toEqual(['starting', 'ending', 'idle']);
      expect(result.media).toBe(0);
      expect(named(result, 'call-end')).toEqual([]);
      expect(result.reports).toHaveLength(1);
      expect(JSON.stringify(result.reports[0])).not.toMatch(/token/i);
      // The web call was created on the emulator, the Daily chunk was loaded from this origin,
      // and the only attempts to leave loopback (Daily's CDN) were stopped in the browser.
      expect(served.slice(before).some((path) => /daily/i.test(path))).toBe(true);
      expect(blocked.some((url) => url.startsWith('https://c.daily.co/'))).toBe(true);
      expect(blocked.every((url) => !url.startsWith('http://127.0.0.1'))).toBe(true);
    },
    SLOW,
  );

  it(
    'honours a self-hosted call bundle (strict CSP: avoidEval, callObjectBundleUrlOverride)',
    async () => {
      const page = await context.newPage();
      const result = await runCall(page, { callConfig: { avoidEval: true, callObjectBundleUrlOverride: `${origin}/vendor/call-machine-object-bundle.js` } });
      expect(result.result).toBeNull();
      expect((named(result, 'call-start-failed') as Array<{ stage: string }>)[0]?.stage).toBe('daily-call-join');
      expect(served.filter((path) => path === '/vendor/call-machine-object-bundle.js').length).toBeGreaterThan(0);
      expect(blocked.some((url) => url.includes('c.daily.co'))).toBe(false);
      expect(result.state).toBe('idle');
      expect(result.media).toBe(0);
    },
    SLOW,
  );

  it(
    "keeps Daily's own validations: userData over 4096 characters is refused by daily-js",
    async () => {
      const page = await context.newPage();
      const consoleLines: string[] = [];
      page.on('console', (message) => consoleLines.push(message.text()));
      const result = await runCall(page, { callObjectOptions: { userData: { note: 'x'.repeat(5000) } } });
      expect(result.result).toBeNull();
      const failed = named(result, 'call-start-failed') as Array<{ stage: string; error: string }>;
      expect(failed[0]?.stage).toBe('daily-call-object-creation');
      expect(failed[0]?.error).toMatch(/invalid userData/);
      // daily-js logs the precise reason, its 4096-character limit.
      expect(consoleLines.some((line) => /userData is too large \(5\d{3} characters\)\. Maximum size suppported is 4096/.test(line))).toBe(true);
      expect((named(result, 'error') as Array<{ type: string }>).map((error) => error.type)).toEqual(['daily-call-object-creation-error', 'start-method-error']);
      expect(result.state).toBe('idle');
      expect(result.media).toBe(0);
    },
    SLOW,
  );

  it(
    'StrictMode mount, unmount, mount: the first Daily call object is gone before the second is created',
    async () => {
      const page = await context.newPage();
      const consoleLines: string[] = [];
      page.on('console', (message) => consoleLines.push(message.text()));
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => typeof window.runStrictMode === 'function');
      const options = JSON.stringify({ baseUrl: emulator.url });
      const result = (await page.evaluate((json) => window.runStrictMode(JSON.parse(json) as RunCallOptions), options)) as RunCallResult & { first: unknown };
      expect(result.first).toBeNull();
      // Without internet the second call fails at the join, not at object creation (no duplicate call object).
      const failed = named(result, 'call-start-failed') as Array<{ stage: string }>;
      expect(failed.map((event) => event.stage)).toEqual(['daily-call-join']);
      expect(consoleLines.some((line) => /duplicate/i.test(line))).toBe(false);
      expect(result.states).toEqual(['starting', 'ending', 'idle', 'starting', 'ending', 'idle']);
      expect(result.state).toBe('idle');
      expect(result.media).toBe(0);
    },
    SLOW,
  );
});
