// What a web page on another origin can do to the servers the tools run on a developer's laptop,
// tried in real Chromium: it cannot place calls through `voice demo`'s Call Me (fetch no-cors, a
// form post), while the demo page itself still can; an unknown slug gets the failure text; the
// 6th call in a minute gets 429. Calls are counted on the emulator the webhook places them on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DemoServer } from '../../cli/commands/demo/server.js';
import { localText } from '../src/local-text.js';
import { demo, launch, openPage, visitorsFile } from './demo-harness.js';

const SUCCESS = "Great! You'll receive a call within the next 15 seconds.";
const FAILED = 'Failed to initiate call. Please try again.';

let browser: Browser;
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
let fixtures: ReturnType<typeof visitorsFile>;
let target: DemoServer;
let limited: DemoServer;
let attacker: { origin: string; server: Server };
const demoLog: string[] = [];

/** A page on another loopback port that tries to place a call through the demo's webhook. */
function attackerPage(webhook: string): string {
  const json = JSON.stringify({ phone: '+14155550199', slug: 'acme' });
  // A text/plain form whose single field name and value add up to a JSON body: the classic trick.
  const name = json.slice(0, -2);
  return `<!doctype html><meta charset="utf-8"><title>free prizes</title>
<iframe name="sink" title="sink"></iframe>
<form id="f" method="post" enctype="text/plain" action="${webhook}" target="sink"><input name='${name}' value='"}'></form>
<script>
window.results = {};
(async () => {
  try { const r = await fetch(${JSON.stringify(webhook)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(json)} }); window.results.noCors = r.type; } catch (e) { window.results.noCors = 'error'; }
  try { const r = await fetch(${JSON.stringify(webhook)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(json)} }); window.results.cors = r.status; } catch (e) { window.results.cors = 'blocked'; }
  document.getElementById('f').submit();
  window.results.done = true;
})();
</script>`;
}

async function callsTo(server: DemoServer, number: string): Promise<number> {
  const t = server.callTarget!;
  const calls = (await (await fetch(`${t.baseUrl}/call?limit=1000`, { headers: { authorization: `Bearer ${t.apiKey}` } })).json()) as { customer?: { number?: string } }[];
  return calls.filter((c) => c.customer?.number === number).length;
}

beforeAll(async () => {
  fixtures = visitorsFile();
  const launched = await launch();
  browser = launched.browser;
  closeBrowser = launched.close;
  context = await browser.newContext();
  [target, limited] = await Promise.all([demo(fixtures.file, { log: (l) => demoLog.push(l) }), demo(fixtures.file)]);
  const page = attackerPage(`${target.origin}/__voice/call-me`);
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  attacker = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
});

afterAll(async () => {
  await Promise.all([target?.close(), limited?.close(), closeBrowser?.(), new Promise((r) => attacker?.server.close(r))]);
  fixtures?.cleanup();
});

async function openForm(server: DemoServer, slug: string): Promise<Page> {
  const { page } = await openPage(context);
  await page.goto(`${server.origin}/${slug}`);
  await page.getByRole('button', { name: 'Call Me' }).click();
  await page.locator('input[type="tel"]').waitFor();
  return page;
}

const message = (page: Page) => page.locator('.phone-form [role="alert"], .phone-form [role="status"]').allInnerTexts();

async function callMe(page: Page, digits: string): Promise<number> {
  await page.locator('input[type="tel"]').pressSequentially(digits);
  const answer = page.waitForResponse((r) => r.url().endsWith('/__voice/call-me'));
  await page.getByRole('button', { name: 'Call Now' }).click();
  return (await answer).status();
}

describe('Call Me against a hostile page', () => {
  it('places no call for a page on another loopback port (fetch no-cors, fetch with JSON, a form post)', async () => {
    const page = await context.newPage();
    await page.goto(`${attacker.origin}/`);
    await page.waitForFunction(() => (window as unknown as { results: { done?: boolean } }).results.done === true);
    // The form's answer lands in the iframe: wait until the demo has refused both posts that reach it.
    await expect.poll(() => demoLog.filter((l) => l.includes('refused POST /__voice/call-me from another origin')).length, { timeout: 10_000 }).toBe(2);
    const results = await page.evaluate(() => (window as unknown as { results: Record<string, unknown> }).results);
    // The JSON fetch needs a preflight the demo does not grant, so it never leaves the browser.
    expect(results.cors).toBe('blocked');
    expect(await callsTo(target, '+14155550199')).toBe(0);
    await page.close();
  });

  it("the demo page's own Call Me still places the call", async () => {
    const page = await openForm(target, 'acme');
    expect(await callMe(page, '4155550123')).toBe(200);
    await expect.poll(() => message(page)).toEqual([SUCCESS]);
    expect(await callsTo(target, '+14155550123')).toBe(1);
    await page.close();
  });

  it("an unknown slug gets the local page's refusal (who to ask for a page) and no call", async () => {
    const page = await openForm(target, 'nobody');
    expect(await page.locator('h1').textContent()).toBe('Hey Visitor,');
    expect(await callMe(page, '4155550124')).toBe(404);
    // This demo runs on the local platform: a refusal retrying cannot fix says why (hosted keeps the specification's text).
    await expect.poll(() => message(page)).toEqual([localText.unknownVisitor]);
    expect(await callsTo(target, '+14155550124')).toBe(0);
    await page.close();
  });

  it('the 6th call in a minute from one client gets 429 with Retry-After, and the failure text', async () => {
    const page = await openForm(limited, 'acme');
    for (let i = 0; i < 5; i++) {
      expect(await callMe(page, `41555501${30 + i}`)).toBe(200);
      await expect.poll(() => message(page)).toEqual([SUCCESS]);
    }
    await page.locator('input[type="tel"]').pressSequentially('4155550140');
    const answer = page.waitForResponse((r) => r.url().endsWith('/__voice/call-me'));
    await page.getByRole('button', { name: 'Call Now' }).click();
    const sixth = await answer;
    expect(sixth.status()).toBe(429);
    expect(Number(sixth.headers()['retry-after'])).toBeGreaterThan(0);
    expect(await sixth.json()).toMatchObject({ ok: false, error: 'rate-limited' });
    await expect.poll(() => message(page)).toEqual([FAILED]);
    expect(await callsTo(limited, '+14155550140')).toBe(0);
    await page.close();
  });
});
