// The demo page under its security headers in real Chromium, as `voice demo` serves it: a strict
// CSP (a fresh nonce per load, no 'unsafe-inline' or 'unsafe-eval'), frame-ancestors 'none',
// Referrer-Policy and nosniff; the page loads and both ways to try the assistant run with no
// `securitypolicyviolation` event, error reporting configured; Test in Browser runs with no
// violation both through Daily (keys configured) and on the embedded emulator (no keys); an
// injected script is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DemoServer } from '../../cli/commands/demo/server.js';
import { startEmulator, type Emulator } from 'voice-agent-core/emulator';
import { demo, launch, openPage, visitorsFile } from './demo-harness.js';

const SUCCESS = "Great! You'll receive a call within the next 15 seconds.";

let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext;
let fixtures: ReturnType<typeof visitorsFile>;
let platform: Emulator;
let server: DemoServer;
let keyless: DemoServer;
const cacheDir = mkdtempSync(join(tmpdir(), 'voice-demo-csp-cache-'));

beforeAll(async () => {
  fixtures = visitorsFile();
  // The platform for "Test in Browser" (POST /call/web with the public key) and for Call Me. Its
  // web calls are Daily rooms, as the hosted platform's are (by default an emulator's are its own).
  platform = await startEmulator({ port: 0, webCallUrlBase: 'https://vapi.daily.co' });
  const launched = await launch({ microphone: 'allowed' });
  browser = launched.browser;
  closeBrowser = launched.close;
  context = await browser.newContext({ permissions: ['microphone'] });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { violations: string[] }).violations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  server = await demo(fixtures.file, {
    // A loopback DSN: error reporting loads (and is allowed by the policy) without leaving the machine.
    flags: { publicKey: 'pk_test', assistantId: 'asst_test', apiUrl: platform.url, sentryDsn: 'http://public@127.0.0.1:9/1' },
    env: { HOME: tmpdir(), XDG_CONFIG_HOME: join(tmpdir(), 'voice-e2e-no-profile'), VOICE_DEMO_CACHE_DIR: cacheDir },
  });
  // No keys at all: Test in Browser runs on the demo's own emulator.
  keyless = await demo(fixtures.file);
}, 120_000);

afterAll(async () => {
  await Promise.all([server?.close(), keyless?.close(), platform?.close(), closeBrowser?.()]);
  fixtures?.cleanup();
  rmSync(cacheDir, { recursive: true, force: true });
});

const violations = (page: Page) => page.evaluate(() => (window as unknown as { violations: string[] }).violations);

async function webCalls(): Promise<number> {
  return ((await (await fetch(`${platform.url}/call?limit=1000`, { headers: { authorization: 'Bearer k' } })).json()) as { type?: string }[]).filter((c) => c.type === 'webCall').length;
}

describe('the demo page under its security headers', () => {
  it('sends a strict CSP with a fresh nonce per load, frame-ancestors none, Referrer-Policy and nosniff', async () => {
    const first = await fetch(`${server.origin}/acme`, { headers: { accept: 'text/html' } });
    const second = await fetch(`${server.origin}/acme`, { headers: { accept: 'text/html' } });
    const csp = first.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(platform.url);
    expect(csp).toContain('http://127.0.0.1:9');
    expect(second.headers.get('content-security-policy')).not.toBe(csp);
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await first.text();
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(html).toContain(`nonce="${nonce}"`);
    expect(html).not.toContain('voice-csp-nonce-placeholder');
  });

  it('loads, and Call Me works, with no CSP violation', async () => {
    const { page } = await openPage(context);
    await page.goto(`${server.origin}/acme`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Acme Corp,');
    await page.getByRole('button', { name: 'Call Me' }).click();
    await page.locator('input[type="tel"]').pressSequentially('4155550123');
    await page.getByRole('button', { name: 'Call Now' }).click();
    await expect.poll(() => page.locator('.phone-form [role="status"]').allInnerTexts()).toEqual([SUCCESS]);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it('Test in Browser with a public key and assistant creates the web call and loads the call bundle with no CSP violation', async () => {
    const { page, requests } = await openPage(context);
    await page.goto(`${server.origin}/acme`);
    await page.getByRole('button', { name: 'Test in Browser' }).waitFor();
    const before = await webCalls();
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    // The web call is created on the platform with the public key (cross-origin, allowed by connect-src)...
    await expect.poll(webCalls, { timeout: 15_000 }).toBe(before + 1);
    // ...and daily-js asks Daily's CDN for its call bundle as a script (allowed by script-src; the test
    // network stops it there, so the call then fails and the button returns to idle).
    await expect.poll(() => requests.filter((u) => u.startsWith('https://c.daily.co/')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('button', { name: 'Test in Browser' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it('Test in Browser without keys runs a call on the embedded emulator with no CSP violation', async () => {
    expect(keyless.localBrowserCalls).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const csp = (await fetch(`${keyless.origin}/acme`, { headers: { accept: 'text/html' } })).headers.get('content-security-policy') ?? '';
    // The call's socket is allowed exactly: the embedded emulator's origin, as ws.
    const sockets = (csp.split('; ').find((d) => d.startsWith('connect-src ')) ?? '').split(' ').filter((s) => /^wss?:/.test(s) && !s.includes('*.'));
    expect(sockets).toEqual([keyless.localBrowserCalls!.replace(/^http/, 'ws')]);
    const { page, requests } = await openPage(context);
    await page.goto(`${keyless.origin}/acme`);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Stop Call' }).count(), { timeout: 20_000 }).toBe(1);
    // The greeting plays (speech synthesis or the murmur in the call's audio track) before stopping.
    await page.waitForTimeout(2000);
    await page.getByRole('button', { name: 'Stop Call' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Test in Browser' }).count(), { timeout: 10_000 }).toBe(1);
    expect(requests.filter((u) => /daily/i.test(u) && !u.includes('/core/webcall/daily-transport.ts'))).toEqual([]);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it('refuses a script injected into the page', async () => {
    const { page } = await openPage(context);
    await page.goto(`${server.origin}/acme`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Acme Corp,');
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.head.append(s);
    });
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    expect(await violations(page)).toEqual(['script-src-elem inline']);
    await page.close();
  });
});
