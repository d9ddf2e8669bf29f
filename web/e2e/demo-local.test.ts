// The demo page on the local platform in real Chromium: it keeps the specification's texts and adds
// a line saying what really happened (no phone rings; the call in the emulator's inspector; a
// terminal command that follows it, run here as printed; a scripted conversation and how to give it
// a model), and says why in plain words when retrying cannot help (a number that cannot be called,
// a page made for nobody). A page whose webhook is configured (hosted) shows the specification's
// texts only, whatever its webhook answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DemoServer } from '../../cli/commands/demo/server.js';
import { ensureBuilt } from '../../cli/test/build.js';
import { runPrinted, voiceOnPath } from '../../cli/test/printed.js';
import { localText } from '../src/local-text.js';
import { demo, launch, openPage, visitorsFile, webhookServer } from './demo-harness.js';

const SUCCESS = "Great! You'll receive a call within the next 15 seconds.";
const FAILED = 'Failed to initiate call. Please try again.';

let browser: Browser;
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
let fixtures: ReturnType<typeof visitorsFile>;
let local: DemoServer;
let hosted: DemoServer;
let hook: Awaited<ReturnType<typeof webhookServer>>;
const home = mkdtempSync(join(tmpdir(), 'voice-demo-local-'));

beforeAll(async () => {
  ensureBuilt();
  fixtures = visitorsFile();
  // A configured webhook that answers as the local one would: refusing a bad number, or placing a call on an emulator.
  hook = await webhookServer((_req, res) => {
    const body = JSON.parse(hook.hits.at(-1)?.body ?? '{}') as { phone?: string };
    if (body.phone !== '+14155550123') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"ok":false,"error":"bad-phone","message":"nope"}');
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"ok":true,"callId":"c1","local":{"emulator":"http://127.0.0.1:9","inspector":true,"scripted":true,"watch":"voice call watch c1"}}');
  });
  const launched = await launch({ microphone: 'allowed' });
  browser = launched.browser;
  closeBrowser = launched.close;
  context = await browser.newContext({ permissions: ['microphone'] });
  [local, hosted] = await Promise.all([demo(fixtures.file), demo(fixtures.file, { flags: { webhookUrl: hook.url } })]);
}, 120_000);

afterAll(async () => {
  await Promise.all([local?.close(), hosted?.close(), hook?.close(), closeBrowser?.()]);
  fixtures?.cleanup();
  rmSync(home, { recursive: true, force: true });
});

async function callMe(server: DemoServer, slug: string, digits: string): Promise<Page> {
  const { page } = await openPage(context);
  await page.goto(`${server.origin}/${slug}`);
  await page.getByRole('button', { name: 'Call Me' }).click();
  const input = page.locator('input[type="tel"]');
  await input.waitFor();
  await input.pressSequentially(digits);
  await page.getByRole('button', { name: 'Call Now' }).click();
  return page;
}

const said = (page: Page) => page.locator('.phone-form [role="alert"], .phone-form [role="status"]').allInnerTexts();

describe('the demo page on the local platform', () => {
  it('keeps the success text and says no phone rang, links the call in the inspector, and prints a watch command that runs as printed', async () => {
    const page = await callMe(local, 'acme', '4155550123');
    await expect.poll(() => said(page)).toEqual([SUCCESS]);
    const note = await page.locator('.phone-form [role="note"]').innerText();
    expect(note).toContain(localText.phoneCall);
    expect(note).toContain(localText.scripted);
    const link = page.locator('.phone-form .note a');
    await expect(link.textContent()).resolves.toBe(localText.inspector);
    const href = String(await link.getAttribute('href'));
    const callId = /#\/calls\/([\w-]+)$/.exec(href)?.[1] as string;
    expect(href).toBe(`${local.emulator?.url}/__voice/inspector/#/calls/${callId}`);
    // The inspector shows that call.
    const inspector = await context.newPage();
    await inspector.goto(href);
    await inspector.getByRole('heading', { name: new RegExp(`Call ${callId}`) }).waitFor({ timeout: 15_000 });
    await inspector.close();
    // The terminal command on the page follows the call, as printed, on a machine without a key.
    const watch = String(await page.locator('.phone-form .note code').textContent());
    expect(watch).toContain(callId);
    const env = { PATH: voiceOnPath(join(home, 'bin')), HOME: home, XDG_CONFIG_HOME: join(home, 'xdg'), NO_COLOR: '1' };
    const watching = runPrinted(watch, env);
    let followed = '';
    watching.stdout?.on('data', (c: Buffer) => (followed += c.toString()));
    await expect.poll(() => followed, { timeout: 30_000 }).not.toBe('');
    await fetch(`${local.emulator?.url}/__voice/calls/${callId}/end`, { method: 'POST', headers: { authorization: 'Bearer any', 'content-type': 'application/json' }, body: '{"by":"customer"}' });
    const r = await watching;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    await page.close();
  }, 120_000);

  it('says how to write a number that cannot be called, instead of asking to try again', async () => {
    const page = await callMe(local, 'acme', '123');
    await expect.poll(() => said(page)).toEqual([localText.badPhone]);
    await page.close();
  });

  it('says who to ask on a page made for nobody', async () => {
    const page = await callMe(local, 'nobody', '4155550123');
    await page.getByRole('heading', { name: 'Hey Visitor,' }).waitFor();
    await expect.poll(() => said(page)).toEqual([localText.unknownVisitor]);
    await page.close();
  });

  it('says a browser call runs on the local platform, scripted, with the call in the inspector', async () => {
    const { page } = await openPage(context);
    await page.goto(`${local.origin}/acme`);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    const note = page.locator('main > [role="note"]');
    await note.waitFor({ timeout: 20_000 });
    await expect(note.textContent()).resolves.toContain(localText.browserCall);
    await expect(note.textContent()).resolves.toContain(localText.scripted);
    await expect(note.locator('a').getAttribute('href')).resolves.toMatch(new RegExp(`^${local.emulator?.url}/__voice/inspector/#/calls/[\\w-]+$`));
    await page.getByRole('button', { name: 'Stop Call' }).click();
    await page.close();
  }, 60_000);
});

describe('a page with a configured webhook (hosted)', () => {
  it("shows the specification's texts only, whatever the webhook answers", async () => {
    const placed = await callMe(hosted, 'acme', '4155550123');
    await expect.poll(() => said(placed)).toEqual([SUCCESS]);
    expect(await placed.locator('[role="note"]').count()).toBe(0);
    await placed.close();
    const refused = await callMe(hosted, 'acme', '123');
    await expect.poll(() => said(refused)).toEqual([FAILED]);
    await refused.close();
  });
});
