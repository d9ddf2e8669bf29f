// What a prospect sees beyond the spec's texts, in real Chromium against `voice demo`: who is
// selling (name, logo, tab icon; a default that is never empty), a live call they can follow
// (timer, speaking then listening, the microphone's level, every state announced), and the page
// on a phone and from the keyboard (Call Now full width, focus into the form and back, visible focus).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DemoServer } from '../../cli/commands/demo/server.js';
import { demo, launch, openPage, visitorsFile } from './demo-harness.js';

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4" fill="#0a0"/></svg>';

let browser: Browser;
let closeBrowser: () => Promise<void>;
let fixtures: ReturnType<typeof visitorsFile>;
let dir: string;
let bare: DemoServer;
let branded: DemoServer;

beforeAll(async () => {
  fixtures = visitorsFile();
  dir = mkdtempSync(join(tmpdir(), 'voice-demo-seen-'));
  writeFileSync(join(dir, 'logo.svg'), LOGO);
  const launched = await launch({ microphone: 'allowed' });
  browser = launched.browser;
  closeBrowser = launched.close;
  [bare, branded] = await Promise.all([
    demo(fixtures.file),
    demo(fixtures.file, { flags: { webhookUrl: 'http://127.0.0.1:9/unused', sellerName: 'Northwind Voice', sellerLogo: join(dir, 'logo.svg') } }),
  ]);
});

afterAll(async () => {
  await Promise.all([bare?.close(), branded?.close(), closeBrowser?.()]);
  fixtures?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function visit(server: DemoServer, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport, permissions: ['microphone'] });
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
  const { page } = await openPage(context);
  await page.goto(`${server.origin}/acme`);
  await page.getByRole('button', { name: 'Test in Browser' }).waitFor();
  return { page, context };
}

const seller = async (page: Page) => ({
  header: await page.locator('header').innerText(),
  logo: await page.locator('header img').getAttribute('src'),
  icon: await page.locator('link[rel="icon"]').getAttribute('href'),
  footer: await page.locator('footer').innerText(),
});

describe('who is selling', () => {
  it('shows the configured name and logo in the header, the footer and the tab icon', async () => {
    const { page, context } = await visit(branded);
    const shown = await seller(page);
    const logo = `data:image/svg+xml;base64,${Buffer.from(LOGO).toString('base64')}`;
    expect(shown).toEqual({ header: 'Northwind Voice', logo, icon: logo, footer: 'Northwind Voice' });
    expect(await page.locator('header img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await context.close();
  });

  it('shows a default mark and name when none is configured, never an empty header or footer', async () => {
    const { page, context } = await visit(bare);
    const shown = await seller(page);
    expect(shown.header).toBe('Voice');
    expect(shown.logo).toMatch(/^data:image\/svg\+xml,/);
    expect(shown.icon).toBe(shown.logo);
    expect(shown.footer).toBe('Voice');
    await context.close();
  });
});

describe('a live call', () => {
  it('shows the time, speaking then listening, and the microphone level; announces each state; ends with every track stopped', async () => {
    const { page, context } = await visit(bare);
    const status = page.getByRole('status');
    const live = page.locator('.live');
    // Nothing of the call takes room before it starts.
    expect((await live.boundingBox())?.height).toBe(0);
    expect(await status.innerText()).toBe('');
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Stop Call' }).count(), { timeout: 15_000 }).toBe(1);
    // The greeting plays: the assistant is speaking, then listening once it is over.
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe('Assistant speaking');
    const timer = page.getByRole('timer');
    const seconds = async () => Number((await timer.innerText()).split(':').pop());
    const first = await seconds();
    await expect.poll(seconds, { timeout: 15_000 }).toBeGreaterThan(first);
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toBe('Listening');
    // The fake microphone beeps: the level moves.
    const meter = page.getByRole('meter', { name: 'Microphone level' });
    await expect.poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Stop Call' }).click();
    await expect.poll(() => status.innerText()).toMatch(/^Call ended after \d+:\d\d$/);
    expect(await timer.count()).toBe(0);
    const tracks = await page.evaluate(() => (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks.map((t) => t.readyState));
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks).not.toContain('live');
    await context.close();
  });
});

describe('phones and keyboards', () => {
  it('on a 375 px screen, the phone field and Call Now each take the full width', async () => {
    const { page, context } = await visit(branded, { width: 375, height: 812 });
    await page.getByRole('button', { name: 'Call Me' }).click();
    const form = await page.locator('.phone-form').boundingBox();
    const field = await page.locator('.phone-form .PhoneInput').boundingBox();
    const button = await page.getByRole('button', { name: 'Call Now' }).boundingBox();
    expect(button?.width).toBe(form?.width);
    expect(field?.width).toBe(form?.width);
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('opening Call Me puts focus in the phone field; Escape or the button closes it with focus back on Call Me', async () => {
    const { page, context } = await visit(branded);
    const callMe = page.getByRole('button', { name: 'Call Me' });
    const focused = () => page.evaluate(() => (document.activeElement?.tagName === 'INPUT' ? document.activeElement.getAttribute('type') : document.activeElement?.textContent));
    await callMe.focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('tel');
    await page.keyboard.type('4155550100');
    await page.keyboard.press('Escape');
    expect(await page.locator('.phone-form').count()).toBe(0);
    expect(await focused()).toBe('Call Me');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('tel');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Call Me');
    await page.keyboard.press('Enter');
    expect(await page.locator('.phone-form').count()).toBe(0);
    expect(await focused()).toBe('Call Me');
    await context.close();
  });

  it('shows where the keyboard is on every control', async () => {
    const { page, context } = await visit(bare);
    await page.getByRole('button', { name: 'Call Me' }).click();
    await page.locator('input[type="tel"]').waitFor();
    const outlines: Record<string, string> = {};
    await page.locator('body').focus();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      const seen = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        // The country list is an invisible select: its focus shows on the flag beside it.
        const shown = el.matches('select') ? (el.nextElementSibling as HTMLElement) : el;
        const style = getComputedStyle(shown);
        return { name: el.tagName + (el.getAttribute('type') ? `:${el.getAttribute('type')}` : ''), outline: style.outlineStyle === 'none' ? 'none' : `${style.outlineWidth} ${style.outlineStyle}` };
      });
      // Past the last control the browser's own UI has the focus (the body reports it).
      if (seen.name !== 'BODY') outlines[seen.name + i] = seen.outline;
    }
    expect(
      Object.values(outlines).filter((o) => o === 'none'),
      JSON.stringify(outlines),
    ).toEqual([]);
    expect(
      Object.keys(outlines)
        .map((k) => k.replace(/\d+$/, ''))
        .sort(),
    ).toEqual(['BUTTON:button', 'BUTTON:button', 'BUTTON:submit', 'INPUT:tel', 'SELECT']);
    await context.close();
  });
});
