#!/usr/bin/env node
// Takes the demo guide's screenshots of the page (docs/demo-*.png) at 1280 and 375 px: idle, the
// Call Me form open, a live Test in Browser call, and after the call. Starts the built `voice demo`
// on its embedded emulator (no keys) and Chromium with a fake microphone. Run after `npm run build`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = { ...process.env, VOICE_API_KEY: '', VAPI_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
const demo = spawn(process.execPath, [`${root}bin/voice.js`, 'demo', '--port', '0', '--slug', 'acme'], { stdio: ['ignore', 'pipe', 'inherit'], env });
const url = await new Promise((r) => demo.stdout.on('data', (d) => r(d.toString().trim())));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
  ],
});
try {
  for (const [name, viewport] of [
    ['1280', { width: 1280, height: 800 }],
    ['375', { width: 375, height: 812 }],
  ]) {
    const context = await browser.newContext({ viewport, colorScheme: 'light', permissions: ['microphone'] });
    const page = await context.newPage();
    const shot = (state) => page.screenshot({ path: `${root}docs/demo-${state}-${name}.png` });
    await page.goto(url);
    await page.locator('h1').waitFor();
    await shot('idle');
    await page.getByRole('button', { name: 'Call Me' }).click();
    await page.locator('input[type="tel"]').pressSequentially('4155550100');
    await shot('form');
    await page.getByRole('button', { name: 'Call Me' }).click();
    await page.getByRole('button', { name: 'Test in Browser' }).click();
    await page.getByRole('button', { name: 'Stop Call' }).waitFor({ timeout: 30_000 });
    await page.getByRole('status').filter({ hasText: 'Listening' }).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1500);
    await page.mouse.move(0, 0);
    await shot('live');
    await page.getByRole('button', { name: 'Stop Call' }).click();
    await page.getByRole('status').filter({ hasText: 'Call ended' }).waitFor();
    await page.mouse.move(0, 0);
    await shot('after');
    await context.close();
  }
} finally {
  await browser.close();
  demo.kill('SIGINT');
}
