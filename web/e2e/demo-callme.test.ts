// "Call Me" in real Chromium against `voice demo`: the country list, an empty phone, a call
// placed through the local webhook onto the emulator, a failing webhook, a dead one, and closing.
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DemoServer } from '../../cli/commands/demo/server.js';
import { deadUrl, demo, isLoopback, launch, openPage, visitorsFile, webhookServer } from './demo-harness.js';

const BIN = new URL('../../bin/voice.js', import.meta.url).pathname;
const SUCCESS = "Great! You'll receive a call within the next 15 seconds.";
const FAILED = 'Failed to initiate call. Please try again.';

let browser: Browser;
// One context for the file: pages share the browser cache, so the phone chunk loads once.
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
let fixtures: ReturnType<typeof visitorsFile>;
let local: DemoServer;
let failing: DemoServer;
let dead: DemoServer;
let hook: Awaited<ReturnType<typeof webhookServer>>;
const allRequests: string[] = [];

beforeAll(async () => {
  fixtures = visitorsFile();
  hook = await webhookServer((_req, res) => void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"nope"}'));
  const launched = await launch();
  browser = launched.browser;
  closeBrowser = launched.close;
  context = await browser.newContext();
  [local, failing, dead] = await Promise.all([
    demo(fixtures.file),
    demo(fixtures.file, { flags: { webhookUrl: hook.url } }),
    deadUrl().then((url) => demo(fixtures.file, { flags: { webhookUrl: url } })),
  ]);
});

afterAll(async () => {
  await Promise.all([local?.close(), failing?.close(), dead?.close(), hook?.close(), closeBrowser?.()]);
  fixtures?.cleanup();
});

async function openForm(server: DemoServer, slug = 'acme'): Promise<{ page: Page; close(): Promise<void> }> {
  const { page, requests } = await openPage(context);
  await page.goto(`${server.origin}/${slug}`);
  await page.getByRole('button', { name: 'Call Me' }).click();
  await page.locator('input[type="tel"]').waitFor();
  return { page, close: async () => (allRequests.push(...requests), await page.close()) };
}

const message = (page: Page) => page.locator('.phone-form [role="alert"], .phone-form [role="status"]').allInnerTexts();

describe('Call Me', () => {
  it('lists US, GB, CA, AU first, then every other country alphabetically; US by default', async () => {
    const { page, close } = await openForm(local);
    const select = page.locator('select');
    expect(await select.inputValue()).toBe('US');
    const options = await select.locator('option').evaluateAll((els) => els.map((e) => ({ value: (e as HTMLOptionElement).value, label: e.textContent ?? '' })));
    expect(options.slice(0, 4).map((o) => o.value)).toEqual(['US', 'GB', 'CA', 'AU']);
    const rest = options.slice(4).filter((o) => /^[A-Z]{2}$/.test(o.value));
    expect(rest.length).toBeGreaterThan(200);
    expect(rest.map((o) => o.label)).toEqual([...rest.map((o) => o.label)].sort((a, b) => a.localeCompare(b)));
    expect(rest.map((o) => o.value)).not.toContain('US');
    // The calling code is shown and cannot be edited away.
    const input = page.locator('input[type="tel"]');
    expect(await input.inputValue()).toBe('+1');
    await input.press('End');
    await input.press('Backspace');
    await input.press('Backspace');
    expect(await input.inputValue()).toBe('+1');
    await close();
  });

  it("shows the chosen country's flag as an image of the page's own origin", async () => {
    const { page, close } = await openForm(local);
    const flag = page.locator('.phone-form .PhoneInputCountryIcon img');
    const loaded = async (): Promise<{ src: string; width: number }> => flag.evaluate((img: HTMLImageElement) => ({ src: img.src, width: img.complete ? img.naturalWidth : 0 }));
    await expect.poll(loaded).toEqual({ src: `${local.origin}/flags/US.svg`, width: expect.any(Number) });
    await expect.poll(async () => (await loaded()).width).toBeGreaterThan(0);
    await page.locator('select').selectOption('GB');
    await expect.poll(async () => (await loaded()).src).toBe(`${local.origin}/flags/GB.svg`);
    await expect.poll(async () => (await loaded()).width).toBeGreaterThan(0);
    await close();
  });

  it('refuses an empty phone and sends nothing', async () => {
    const { page, close } = await openForm(failing);
    const before = hook.hits.length;
    await page.getByRole('button', { name: 'Call Now' }).click();
    await expect.poll(() => message(page)).toEqual(['Please enter a valid phone number']);
    expect(hook.hits.length).toBe(before);
    await close();
  });

  it('places the call through the local webhook, clears the phone and shows success', async () => {
    const { page, close } = await openForm(local);
    const input = page.locator('input[type="tel"]');
    await input.pressSequentially('4155550123');
    await page.getByRole('button', { name: 'Call Now' }).click();
    await expect.poll(() => message(page)).toEqual([SUCCESS]);
    expect(await input.inputValue()).toBe('+1');
    // The call is listed by the CLI on the platform the webhook used (the in-process emulator;
    // `--api-url` stands in for `--local`, which is fixed to port 4010 and tests use free ports).
    const target = local.callTarget!;
    const list = await execa(process.execPath, [BIN, 'call', 'list', '--json', '--api-url', target.baseUrl, '--api-key', target.apiKey], { env: { XDG_CONFIG_HOME: '/nonexistent' } });
    const calls = JSON.parse(list.stdout) as {
      customer?: { number?: string };
      assistantOverrides?: { firstMessage?: string; model?: { model?: string; messages?: { content: string }[] } };
    }[];
    const call = calls.find((c) => c.customer?.number === '+14155550123');
    expect(call?.assistantOverrides?.firstMessage).toBe('Hello, this is Acme.');
    expect(call?.assistantOverrides?.model?.model).toBe('gpt-4o-mini');
    expect(call?.assistantOverrides?.model?.messages?.[0]?.content).toBe('You are the Acme Corp assistant.');
    await close();
  });

  it('reports a webhook answering 500', async () => {
    const { page, close } = await openForm(failing);
    const before = hook.hits.length;
    await page.locator('input[type="tel"]').pressSequentially('2133734253');
    await page.getByRole('button', { name: 'Call Now' }).click();
    await expect.poll(() => message(page)).toEqual([FAILED]);
    expect(hook.hits.slice(before).map((h) => JSON.parse(h.body))).toEqual([{ phone: '+12133734253', slug: 'acme' }]);
    await close();
  });

  it('reports a webhook that cannot be reached', async () => {
    const { page, close } = await openForm(dead);
    await page.locator('input[type="tel"]').pressSequentially('2133734253');
    await page.getByRole('button', { name: 'Call Now' }).click();
    await expect.poll(() => message(page)).toEqual([FAILED]);
    await close();
  });

  it('shows Initiating Call... while the webhook is busy', async () => {
    const { page, close } = await openForm(local);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/__voice/call-me', async (route) => (await held, route.fulfill({ status: 200, body: '{}' })));
    await page.locator('input[type="tel"]').pressSequentially('2133734253');
    const field = page.locator('.phone-form .PhoneInput');
    const before = await field.boundingBox();
    await page.getByRole('button', { name: 'Call Now' }).click();
    await expect.poll(() => page.locator('.phone-form button').innerText()).toBe('Initiating Call...');
    // The phone field keeps its size while the longer label shows.
    expect(await field.boundingBox()).toEqual(before);
    release();
    await expect.poll(() => message(page)).toEqual([SUCCESS]);
    expect(await page.locator('.phone-form button').innerText()).toBe('Call Now');
    await close();
  });

  it('closing the form clears the phone, the error and the success message', async () => {
    const { page, close } = await openForm(failing);
    const input = page.locator('input[type="tel"]');
    await input.pressSequentially('2133734253');
    await page.getByRole('button', { name: 'Call Now' }).click();
    await expect.poll(() => message(page)).toEqual([FAILED]);
    await input.pressSequentially('9');
    // Call Me shows that its form is open: aria-expanded and a visual state of its own.
    const callMe = page.getByRole('button', { name: 'Call Me' });
    expect(await callMe.getAttribute('aria-expanded')).toBe('true');
    const openLook = await callMe.evaluate((b) => getComputedStyle(b).backgroundColor + getComputedStyle(b).boxShadow);
    await callMe.click();
    expect(await page.locator('.phone-form').count()).toBe(0);
    expect(await callMe.getAttribute('aria-expanded')).toBe('false');
    expect(await callMe.evaluate((b) => getComputedStyle(b).backgroundColor + getComputedStyle(b).boxShadow)).not.toBe(openLook);
    await page.getByRole('button', { name: 'Call Me' }).click();
    expect(await page.locator('input[type="tel"]').inputValue()).toBe('+1');
    expect(await message(page)).toEqual([]);
    await close();
  });

  it('a form whose code cannot be fetched says so in place; the page stays', async () => {
    const isolated = await browser.newContext();
    try {
      const { page } = await openPage(isolated);
      // Registered after openPage's catch-all, so it is asked first.
      await page.route(/PhoneForm/, (route) => route.abort('connectionfailed'));
      await page.goto(`${local.origin}/acme`);
      await page.getByRole('button', { name: 'Call Me' }).click();
      await expect.poll(() => page.getByRole('alert').allInnerTexts()).toEqual(['The form could not load. Check your connection and reload the page.']);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('Acme');
      expect(await page.getByRole('button', { name: 'Test in Browser' }).isVisible()).toBe(true);
    } finally {
      await isolated.close();
    }
  });

  it('never sends a request off this machine', () => {
    expect(allRequests.length).toBeGreaterThan(10);
    expect(allRequests.filter((url) => !isLoopback(url))).toEqual([]);
  });
});
