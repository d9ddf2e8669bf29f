// "Test in Browser" never leaves a live microphone behind an idle button (issue 23), in real
// Chromium on `npm start`'s setup (the embedded emulator): captions of the call, Stop Call with
// every microphone track ended, a start against an unreachable platform, and errors injected
// through the scripted transport (a non-fatal one keeps the call, a fatal one ends it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../../cli/commands/demo/server.js';
import { deadUrl, demo, launch, openPage, visitorsFile } from './demo-harness.js';

let browser: Browser;
let closeBrowser: () => Promise<void>;
let fixtures: ReturnType<typeof visitorsFile>;
let bare: DemoServer;
let unreachable: DemoServer;

beforeAll(async () => {
  fixtures = visitorsFile();
  const launched = await launch({ microphone: 'allowed' });
  browser = launched.browser;
  closeBrowser = launched.close;
  const apiUrl = (await deadUrl()).replace(/\/hook$/, '');
  [bare, unreachable] = await Promise.all([
    demo(fixtures.file, { flags: { webhookUrl: 'http://127.0.0.1:9/unused' } }),
    demo(fixtures.file, { flags: { webhookUrl: 'http://127.0.0.1:9/unused', publicKey: 'pk_test', assistantId: 'asst_test', apiUrl } }),
  ]);
});

afterAll(async () => {
  await Promise.all([bare?.close(), unreachable?.close(), closeBrowser?.()]);
  fixtures?.cleanup();
});

/** Opens /acme with every getUserMedia track recorded in `window.__tracks`. */
async function visit(server: DemoServer) {
  const context = await browser.newContext({ permissions: ['microphone'] });
  await context.addInitScript(() => {
    const w = window as unknown as { __tracks: MediaStreamTrack[] };
    w.__tracks = [];
    const devices = navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      w.__tracks.push(...stream.getTracks());
      return stream;
    };
  });
  const { page, consoleLines } = await openPage(context);
  await page.goto(`${server.origin}/acme`);
  await page.getByRole('button', { name: 'Test in Browser' }).waitFor();
  return { page, consoleLines, close: () => context.close() };
}

/** States of every microphone track the page was given. */
const tracks = (page: Page) => page.evaluate(() => (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks.map((t) => t.readyState));

/** Replaces the page's web-call client module by the real client over the scripted transport. */
async function scripted(page: Page): Promise<void> {
  await page.route('**/core/webcall/index.ts*', (route) => {
    const base = route
      .request()
      .url()
      .replace(/index\.ts.*$/, '');
    return route.fulfill({
      contentType: 'text/javascript',
      body: `import { WebCall as Real } from '${base}webcall.ts';
        import { scriptedTransports } from '${base}testing.ts';
        export class WebCall extends Real {
          constructor(key, baseUrl, callConfig, callObjectOptions, options) {
            // A noise-cancellation processor that cannot be turned off: its recovery fails (non-fatal).
            const transports = scriptedTransports({ setNoiseCancellation: (on) => (on ? Promise.resolve() : Promise.reject(new Error('processor stuck'))) });
            super(key, baseUrl, callConfig, callObjectOptions, { ...options, transport: transports.factory });
            window.__transports = transports;
            window.__errors = [];
            this.on('error', (e) => window.__errors.push(e.type + ':' + e.fatal));
          }
        }
        export const loadDaily = async () => ({});`,
    });
  });
}

type Injected = { __transports: { last: { emit(e: unknown): void; message(d: unknown): void; destroyed: boolean }; live(): unknown[] }; __errors: string[] };

describe('Test in Browser ends cleanly', () => {
  it('shows captions of the call, and Stop Call returns to idle with every microphone track ended', async () => {
    const { page, consoleLines, close } = await visit(bare);
    const captions = page.getByRole('log', { name: 'Captions' });
    // The live region is there before the call (so each line is announced), taking no room while empty.
    const footerBefore = await page.locator('.actions').boundingBox();
    const regionBefore = await captions.boundingBox();
    expect(regionBefore?.height).toBe(0);
    expect(await captions.getAttribute('aria-live')).toBe('polite');
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Stop Call' }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => captions.innerText(), { timeout: 15_000 }).toContain('Hello, this is Acme.');
    expect(await captions.innerText()).toContain('Assistant:');
    // Lines appear below the buttons: nothing above them moves.
    expect(await page.locator('.actions').boundingBox()).toEqual(footerBefore);
    expect((await tracks(page)).some((state) => state === 'live')).toBe(true);
    await page.getByRole('button', { name: 'Stop Call' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Test in Browser' }).count()).toBe(1);
    await expect.poll(() => tracks(page)).not.toContain('live');
    expect((await tracks(page)).length).toBeGreaterThan(0);
    // The captions clear when the call ends.
    await expect.poll(() => captions.innerText()).toBe('');
    // The page's CSP lets the page reach the emulator's call socket.
    expect(consoleLines.filter((line) => /Content Security Policy/.test(line))).toEqual([]);
    await close();
  });

  it('a start against an unreachable platform returns to an enabled Test in Browser with no live track', async () => {
    const { page, consoleLines, close } = await visit(unreachable);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => consoleLines.some((line) => line.includes('Browser call failed')), { timeout: 15_000 }).toBe(true);
    const button = page.getByRole('button', { name: 'Test in Browser' });
    await expect.poll(() => button.count()).toBe(1);
    expect(await button.isEnabled()).toBe(true);
    expect(await tracks(page)).not.toContain('live');
    // No new error text for this failure (spec 8: only logged).
    expect(await page.getByRole('alert').count()).toBe(0);
    await close();
  });

  it('a non-fatal error keeps Stop Call and the call; a fatal one returns to idle and stops it', async () => {
    const { page, close } = await visit(bare);
    await scripted(page);
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await page.waitForFunction(() => (window as unknown as Partial<Injected>).__transports?.live().length === 1, undefined, { timeout: 15_000 });
    await page.evaluate(() => (window as unknown as Injected).__transports.last.message('listening'));
    await expect.poll(() => page.getByRole('button', { name: 'Stop Call' }).count()).toBe(1);

    await page.evaluate(() => (window as unknown as Injected).__transports.last.emit({ type: 'nonfatal-error', error: { type: 'audio-processor-error' } }));
    await expect.poll(() => page.evaluate(() => (window as unknown as Injected).__errors)).toEqual(['audio-processor-recovery-error:false']);
    await page.waitForTimeout(500);
    expect(await page.getByRole('button', { name: 'Stop Call' }).count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as Injected).__transports.live().length)).toBe(1);

    await page.evaluate(() => (window as unknown as Injected).__transports.last.emit({ type: 'fatal-error', error: { type: 'ejected', errorMsg: 'Meeting has ended' } }));
    await expect.poll(() => page.getByRole('button', { name: 'Test in Browser' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Test in Browser' }).isEnabled()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as Injected).__errors)).toEqual(['audio-processor-recovery-error:false', 'daily-error:true']);
    expect(await page.evaluate(() => (window as unknown as Injected).__transports.live().length)).toBe(0);
    expect(await page.evaluate(() => (window as unknown as Injected).__transports.last.destroyed)).toBe(true);
    expect(await tracks(page)).not.toContain('live');
    await close();
  });
});
