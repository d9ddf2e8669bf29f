// Shared set-up for the browser tests: one Chromium per test file (with a fake microphone for the
// calls), `voice demo` servers started in-process on free loopback ports, and a record of every
// request the page makes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startDemo, type DemoOptions, type DemoServer } from '../../cli/commands/demo/server.js';

/** Visitors every test file can rely on, including one whose name is markup. */
export const VISITORS = [
  { slug: 'default', name: 'Guest', system: 'You are the default demo assistant.', first_message: 'Hello from default.' },
  { slug: 'acme', name: 'Acme Corp', system: 'You are the Acme Corp assistant.', first_message: 'Hello, this is Acme.' },
  { slug: 'xss', name: '<img src=x onerror=alert(1)>', system: '<b>bold</b>', first_message: '<script>alert(2)</script>' },
];

/** A temporary directory holding visitors.json; removed by `cleanup`. */
export function visitorsFile(): { file: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'voice-demo-e2e-'));
  const file = join(dir, 'visitors.json');
  writeFileSync(file, JSON.stringify(VISITORS));
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts `voice demo` on a free port with the test visitors and a fresh, empty environment. */
export function demo(file: string, options: DemoOptions = {}): Promise<DemoServer> {
  return startDemo({ port: 0, emulatorPort: 0, visitors: file, env: { HOME: tmpdir(), XDG_CONFIG_HOME: join(tmpdir(), 'voice-e2e-no-profile') }, log: () => undefined, ...options });
}

/** How a test's Chromium is launched. */
export interface LaunchOptions {
  /**
   * A fake microphone (and camera), so a call never waits on a real device: `'allowed'` grants it
   * without a prompt, `'denied'` refuses every permission prompt, `{ wav }` grants it and plays the
   * file once (then silence). Unset: no fake devices.
   */
  microphone?: 'allowed' | 'denied' | { wav: string };
  /** More Chromium flags (host-resolver rules, features turned off...). */
  args?: string[];
}

/** Chromium's flags for a fake microphone. */
function microphoneArgs(microphone: LaunchOptions['microphone']): string[] {
  if (microphone === undefined) return [];
  if (microphone === 'denied') return ['--use-fake-device-for-media-stream', '--deny-permission-prompts'];
  const file = microphone === 'allowed' ? [] : [`--use-file-for-fake-audio-capture=${microphone.wav}%noloop`];
  return ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', ...file];
}

/** Launches Debian's Chromium headless with the house flags (playwright gives it a fresh temp profile). */
export async function launch(options: LaunchOptions = {}): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...microphoneArgs(options.microphone),
      ...(options.args ?? []),
    ],
  });
  return { browser, close: () => browser.close() };
}

/** A page that records every request and console message, and aborts anything not on loopback. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; requests: string[]; consoleLines: string[] }> {
  const page = await context.newPage();
  const requests: string[] = [];
  const consoleLines: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  page.on('console', (msg) => consoleLines.push(msg.text()));
  await page.route('**/*', (route) => (isLoopback(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
  return { page, requests, consoleLines };
}

/** True for URLs that stay on this machine (or never touch the network). */
export function isLoopback(url: string): boolean {
  if (/^(data|blob|about):/.test(url)) return true;
  const { hostname } = new URL(url);
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

/** A loopback HTTP server for webhook tests; every request is recorded. */
export async function webhookServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const hits: { method: string; body: string }[] = [];
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'authorization, content-type');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A loopback URL nothing listens on (a port just released). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}
