// The demo page's screens in real Chromium against `voice demo`: greeting and title per slug,
// the 'Visitor' fallback and the strict Not found screen, text-only rendering, loopback only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoServer } from '../../cli/commands/demo/server.js';
import { demo, isLoopback, launch, openPage, visitorsFile } from './demo-harness.js';

let browser: Browser;
// Shared by the plain visits so the browser cache serves the modules after the first page.
let shared: BrowserContext;
let closeBrowser: () => Promise<void>;
let server: DemoServer;
let strict: DemoServer;
let fixtures: ReturnType<typeof visitorsFile>;
const allRequests: string[] = [];

beforeAll(async () => {
  fixtures = visitorsFile();
  const launched = await launch();
  browser = launched.browser;
  closeBrowser = launched.close;
  shared = await browser.newContext();
  // These screens never place a call, so no local webhook (or emulator) is needed.
  const flags = { webhookUrl: 'http://127.0.0.1:9/unused' };
  const links = { VOICE_LINK_LINKEDIN: 'https://www.linkedin.com/in/someone', VOICE_LINK_WEBSITE: 'javascript:alert(1)', VOICE_LINK_TWITTER: 'https://x.com/someone' };
  [server, strict] = await Promise.all([
    demo(fixtures.file, { flags }),
    demo(fixtures.file, { strict: true, flags: { ...flags, supabaseAnonKey: 'anon-test' }, env: { HOME: tmpdir(), XDG_CONFIG_HOME: join(tmpdir(), 'voice-e2e-no-profile'), ...links } }),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.close(), strict?.close(), closeBrowser?.()]);
  fixtures?.cleanup();
});

async function visit(target: DemoServer, path: string) {
  const { page, requests, consoleLines } = await openPage(shared);
  await page.goto(`${target.origin}${path}`);
  return { page, requests, consoleLines, close: () => (allRequests.push(...requests), page.close()) };
}

describe('voice demo page', () => {
  it('greets acme by name and titles the tab for them', async () => {
    const { page, requests, close } = await visit(server, '/acme');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Acme Corp,');
    expect(await page.title()).toBe('Demo for Acme Corp');
    // The phone field, the call client and error reporting are not part of the first load (the
    // React binding is: it imports the client only when a call starts).
    expect(requests.filter((u) => /PhoneForm|react-phone-number-input|daily|\/webcall\/|sentry/i.test(u))).toEqual([]);
    const body = await page.locator('body').innerText();
    expect(body).toContain("Choose how you'd like to try it:");
    expect(await page.getByRole('button', { name: 'Call Me' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Test in Browser' }).isVisible()).toBe(true);
    await close();
  });

  it('uses the default visitor for /', async () => {
    const { page, close } = await visit(server, '/');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Guest,');
    expect(await page.title()).toBe('Demo for Guest');
    await close();
  });

  it('shows Loading... until the visitor arrives', async () => {
    const context = await browser.newContext();
    const { page } = await openPage(context);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/rest/v1/visitors*', async (route) => (await held, route.continue()));
    await page.goto(`${server.origin}/acme`);
    await expect.poll(() => page.locator('#root').innerText()).toBe('Loading...');
    release();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Acme Corp,');
    await context.close();
  });

  it("falls back to 'Visitor' for an unknown slug and says so in the console", async () => {
    const { page, consoleLines, close } = await visit(server, '/nobody-here');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Visitor,');
    expect(await page.title()).toBe('Demo for Visitor');
    expect(consoleLines.some((line) => line.includes('nobody-here'))).toBe(true);
    await close();
  });

  it("falls back to 'Visitor' when the lookup fails", async () => {
    const context = await browser.newContext();
    const { page, consoleLines } = await openPage(context);
    await page.route('**/rest/v1/visitors*', (route) => route.fulfill({ status: 500, body: '{"message":"boom"}', contentType: 'application/json' }));
    await page.goto(`${server.origin}/acme`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Visitor,');
    expect(consoleLines.some((line) => line.includes('acme'))).toBe(true);
    await context.close();
  });

  it('shows Not found for an unknown slug with --strict, with a way back', async () => {
    const { page, close } = await visit(strict, '/nobody-here');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Page Not Found');
    expect(await page.locator('body').innerText()).toContain('The requested page does not exist.');
    const back = page.getByRole('link', { name: 'Go back to main page' });
    expect(await back.getAttribute('href')).toBe('/');
    await back.click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Guest,');
    await close();
  });

  it('still greets known visitors with --strict, with the configured footer links opening safely', async () => {
    const lookups: Record<string, string>[] = [];
    const page0 = await shared.newPage();
    page0.on('request', (req) => void (req.url().includes('/rest/v1/visitors') && lookups.push(req.headers())));
    await page0.goto(`${strict.origin}/acme`);
    await expect.poll(() => page0.locator('h1').textContent()).toBe('Hey Acme Corp,');
    // One lookup, with the anon key and the slug header the hosted row-level security reads.
    expect(lookups).toHaveLength(1);
    expect(lookups[0]).toMatchObject({ apikey: 'anon-test', authorization: 'Bearer anon-test', 'x-visitor-slug': 'acme' });
    await page0.close();
    const { page, close } = await visit(strict, '/acme');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey Acme Corp,');
    const footer = page.locator('footer a');
    const attrs = await footer.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]));
    expect(attrs).toEqual([
      ['LinkedIn', 'https://www.linkedin.com/in/someone', '_blank', 'noopener noreferrer'],
      ['Twitter', 'https://x.com/someone', '_blank', 'noopener noreferrer'],
    ]);
    await close();
  });

  it('renders a visitor name made of markup as literal text', async () => {
    const { page, close } = await visit(server, '/xss');
    let dialogs = 0;
    page.on('dialog', (d) => (dialogs++, void d.dismiss()));
    await expect.poll(() => page.locator('h1').textContent()).toBe('Hey <img src=x onerror=alert(1)>,');
    expect(await page.title()).toBe('Demo for <img src=x onerror=alert(1)>');
    expect(await page.locator('h1 img').count()).toBe(0);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toBe(0);
    await close();
  });

  it('never sends a request off this machine', () => {
    expect(allRequests.length).toBeGreaterThan(10);
    expect(allRequests.filter((url) => !isLoopback(url))).toEqual([]);
  });
});
