// `voice demo build` output on a plain static server in real Chromium: the right visitor for
// each slug, through both host fallbacks (rewrite to index.html, and 404.html), with the
// configuration baked in and no secret in any built file.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AsYouType } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/min/metadata';
import { buildDemo, HOST_FILES } from '../../cli/commands/demo/build-run.js';
import { resolveDemoConfig } from '../../cli/commands/demo/config.js';
import { LiveVisitorsFile } from '#core/visitors/file-store';
import { visitorsMiddleware } from '#core/visitors/postgrest';
import { launch } from './demo-harness.js';

const SECRET_API_KEY = 'sk-private-platform-key-0123456789';
const SERVICE_ROLE_KEY = 'service-role-secret-9876543210';
const VISITORS = [
  { slug: 'default', name: 'Guest', system: 'Default.', first_message: 'Hello.' },
  { slug: 'acme', name: 'Acme Corp', system: 'You are the Acme assistant.', first_message: 'Hello Acme.' },
  { slug: 'globex', name: 'Globex', system: 'You are the Globex assistant.', first_message: 'Hello Globex.' },
];

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Array<{ close(cb: () => void): void }> = [];
async function listen(handler: Handler): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

/** A static file server; unknown paths get index.html (a host rewrite) or 404.html with status 404. */
function staticHost(dir: string, fallback: 'rewrite' | '404', headers: Record<string, string> = {}): Handler {
  return (req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path === '/' ? 'index.html' : path);
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      isFile = false;
    }
    const [status, served] = isFile ? [200, file] : fallback === 'rewrite' ? [200, join(dir, 'index.html')] : [404, join(dir, '404.html')];
    res.writeHead(status, { 'content-type': TYPES[extname(served)] ?? 'application/octet-stream' }).end(readFileSync(served));
  };
}

let work: string;
let outDir: string;
let files: string[];
let browser: Browser;
const slugHeaders: string[] = [];
let database: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voice-demo-build-'));
  const visitorsFile = join(work, 'visitors.json');
  writeFileSync(visitorsFile, JSON.stringify(VISITORS));
  // The hosted database stand-in: the same PostgREST answers `voice demo` serves, cross-origin like Supabase.
  const rest = visitorsMiddleware(new LiveVisitorsFile(visitorsFile));
  database = await listen((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    slugHeaders.push(String(req.headers['x-visitor-slug']));
    rest(req, res, () => res.writeHead(404).end());
  });
  const env = {
    VOICE_SUPABASE_URL: database,
    VOICE_SUPABASE_ANON_KEY: 'anon-public-key-for-tests',
    VOICE_WEBHOOK_URL: 'http://127.0.0.1:9/call-me',
    VOICE_API_KEY: SECRET_API_KEY,
    XDG_CONFIG_HOME: join(work, 'no-profile'),
  };
  const config = resolveDemoConfig({}, env);
  const result = await buildDemo({ outDir: join(work, 'out'), page: config.page, secrets: [SECRET_API_KEY, SERVICE_ROLE_KEY], cwd: work, log: () => undefined });
  outDir = result.outDir;
  files = result.files;
  ({ browser } = await launch());
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  if (work) rmSync(work, { recursive: true, force: true });
});

async function open(origin: string, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const outside: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (/^https?:\/\/127\.0\.0\.1[:/]/.test(url) || /^(data|blob):/.test(url)) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  await page.goto(`${origin}${path}`);
  return { page, outside, close: () => context.close() };
}

/** The headers a Netlify / Cloudflare Pages `_headers` file gives every path (`/*`). */
function headersFile(text: string): Record<string, string> {
  const lines = text.split('\n');
  expect(lines[0]).toBe('/*');
  return Object.fromEntries(
    lines
      .slice(1)
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
  );
}

describe('voice demo build', () => {
  it('writes the page, the 404.html fallback and host rewrite files', () => {
    expect(files).toEqual(expect.arrayContaining(['index.html', '404.html', '_redirects', 'vercel.json']));
    expect(files.some((f) => /^assets\/.+\.js$/.test(f))).toBe(true);
    expect(readFileSync(join(outDir, '404.html'), 'utf8')).toBe(readFileSync(join(outDir, 'index.html'), 'utf8'));
    expect(readFileSync(join(outDir, '_redirects'), 'utf8')).toBe(HOST_FILES._redirects);
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(html).toContain(`"supabaseUrl":"${database}"`);
    // The configuration ahead of the page's script; the CSS written in.
    expect(html.indexOf('__VOICE_CONFIG__')).toBeGreaterThan(-1);
    expect(html.indexOf('__VOICE_CONFIG__')).toBeLessThan(html.indexOf('<script type="module"'));
    expect(html).toContain('<style>');
    expect(html).not.toContain('rel="stylesheet"');
    expect(files.filter((f) => f.endsWith('.css') && !/PhoneForm/.test(f))).toEqual([]);
    expect(html).toContain('anon-public-key-for-tests');
  });

  it('writes the security headers for Netlify, Cloudflare Pages and Vercel; the page runs under them with no CSP violation', async () => {
    expect(files).toEqual(expect.arrayContaining(['_headers', 'netlify.toml', 'vercel.json']));
    const headers = headersFile(readFileSync(join(outDir, '_headers'), 'utf8'));
    const csp = headers['Content-Security-Policy'] ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(database);
    expect(headers).toMatchObject({ 'Referrer-Policy': 'strict-origin-when-cross-origin', 'X-Content-Type-Options': 'nosniff' });
    const vercel = JSON.parse(readFileSync(join(outDir, 'vercel.json'), 'utf8')) as { rewrites: unknown[]; headers: { source: string; headers: { key: string; value: string }[] }[] };
    expect(vercel.rewrites).toEqual([{ source: '/(.*)', destination: '/index.html' }]);
    expect(Object.fromEntries(vercel.headers[0]!.headers.map((h) => [h.key, h.value]))).toEqual(headers);
    const toml = readFileSync(join(outDir, 'netlify.toml'), 'utf8');
    for (const [name, value] of Object.entries(headers)) expect(toml).toContain(`${name} = ${JSON.stringify(value)}`);

    const host = await listen(staticHost(outDir, 'rewrite', headers));
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const page = await context.newPage();
    await page.route('**/*', (route) => (/^https?:\/\/127\.0\.0\.1[:/]/.test(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
    const response = await page.goto(`${host}/acme`);
    expect(response?.headers()['content-security-policy']).toBe(csp);
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe('Hey Acme Corp,');
    // The inline stylesheet applies (allowed by its hash): the page's background.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(246, 247, 251)');
    await page.getByRole('button', { name: 'Call Me' }).click();
    await page.locator('input[type="tel"]').waitFor();
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    // The policy does bite: a script injected into the page does not run.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.head.append(s);
    });
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual(['script-src-elem inline']);
    await context.close();
  });

  it('puts no secret key in any built file', () => {
    for (const f of files) {
      const text = readFileSync(join(outDir, f), 'utf8');
      expect(text, f).not.toContain(SECRET_API_KEY);
      expect(text, f).not.toContain(SERVICE_ROLE_KEY);
    }
  });

  it('shows the right visitor for two slugs on a host that rewrites to index.html', async () => {
    const host = await listen(staticHost(outDir, 'rewrite'));
    for (const [slug, name] of [
      ['acme', 'Acme Corp'],
      ['globex', 'Globex'],
    ] as const) {
      const asked = slugHeaders.length;
      const { page, outside, close } = await open(host, `/${slug}`);
      await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe(`Hey ${name},`);
      expect(await page.title()).toBe(`Demo for ${name}`);
      expect(outside).toEqual([]);
      // One lookup per load.
      expect(slugHeaders.slice(asked)).toEqual([slug]);
      await close();
    }
    expect(slugHeaders).toEqual(expect.arrayContaining(['acme', 'globex']));
  });

  // The build takes the phone libraries lean (web/vite/phone-input-build.ts): the form behaves as published.
  it('opens the built phone form: US, GB, CA, AU first, the calling code kept, numbers formatted as the library does', async () => {
    const host = await listen(staticHost(outDir, 'rewrite'));
    const { page, outside, close } = await open(host, '/acme');
    await page.getByRole('button', { name: 'Call Me' }).click();
    const input = page.locator('input[type="tel"]');
    await input.waitFor({ timeout: 15_000 });
    const select = page.locator('.phone-form select');
    expect(await select.inputValue()).toBe('US');
    const options = await select.locator('option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    expect(options.slice(0, 4)).toEqual(['US', 'GB', 'CA', 'AU']);
    expect(options.length).toBeGreaterThan(200);
    expect(await input.inputValue()).toBe('+1');
    await input.pressSequentially('4155550123');
    expect(await input.inputValue()).toBe(new AsYouType(undefined, metadata).input('+14155550123'));
    await input.fill('');
    await select.selectOption('GB');
    await expect.poll(() => input.inputValue()).toBe('+44');
    await input.press('End');
    await input.pressSequentially('7400123456');
    expect(await input.inputValue()).toBe(new AsYouType(undefined, metadata).input('+447400123456'));
    expect(outside).toEqual([]);
    await close();
  });

  it('shows the right visitor through 404.html on a host without rewrites, and default at /', async () => {
    const host = await listen(staticHost(outDir, '404'));
    for (const [path, name] of [
      ['/globex', 'Globex'],
      ['/', 'Guest'],
    ] as const) {
      const { page, close } = await open(host, path);
      await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe(`Hey ${name},`);
      await close();
    }
  });
});
