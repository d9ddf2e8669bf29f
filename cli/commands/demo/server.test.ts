import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from 'voice-agent-core/emulator';
import { LiveVisitorsFile } from '#core/visitors/file-store';
import { visitorsMiddleware } from '#core/visitors/postgrest';
import { CliError } from '../../errors.js';
import { packageRoot, visitorsFile, watchIgnored } from './files.js';
import { startDemo, type DemoOptions } from './server.js';

const dir = mkdtempSync(join(tmpdir(), 'voice-demo-server-'));
const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'cfg') };
const quiet = (lines: string[] = []): DemoOptions => ({ port: 0, emulatorPort: 0, env, cwd: dir, log: (l) => lines.push(l) });
let blocker: Server;
let blockedPort: number;
let emulator: Emulator;

beforeAll(async () => {
  blocker = createServer((_req, res) => res.writeHead(404).end('not an emulator'));
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  blockedPort = (blocker.address() as AddressInfo).port;
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('startDemo', () => {
  it('names the busy port and the flag that fixes it', async () => {
    const err = await startDemo({ ...quiet(), port: blockedPort, flags: { webhookUrl: 'http://127.0.0.1:9/x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).message).toBe(`Port ${blockedPort} on 127.0.0.1 is already in use.`);
    expect((err as CliError).hint).toContain('--port');
  });

  it('refuses a bad slug and a broken visitors file with usage errors', async () => {
    await expect(startDemo({ ...quiet(), slug: 'Not A Slug' })).rejects.toMatchObject({ exitCode: 2 });
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ nope');
    await expect(startDemo({ ...quiet(), visitors: broken })).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('broken.json') });
  });

  it('serves the page for the slug and warns when the slug has no visitor', async () => {
    const lines: string[] = [];
    const demo = await startDemo({ ...quiet(lines), slug: 'nobody', flags: { webhookUrl: 'http://127.0.0.1:9/x' } });
    try {
      expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/nobody$/);
      expect(lines.join('\n')).toContain('no visitor "nobody"');
      const html = await (await fetch(demo.url)).text();
      expect(html).toContain('window.__VOICE_CONFIG__=');
      expect(html).toContain('"webhookUrl":"http://127.0.0.1:9/x"');
    } finally {
      await demo.close();
    }
  });

  it('never adopts an emulator it did not start on the preferred port, and avoids a port held by something else', async () => {
    const notes: string[] = [];
    const reuse = await startDemo({ ...quiet(notes), emulatorPort: Number(new URL(emulator.url).port) });
    const avoid = await startDemo({ ...quiet(), emulatorPort: blockedPort });
    try {
      expect(reuse.callTarget?.baseUrl).not.toBe(emulator.url);
      expect(notes.join('\n')).toContain(`to use that one instead, pass --api-url ${emulator.url}`);
      expect(await (await fetch(`${emulator.url}/assistant`, { headers: { authorization: 'Bearer k' } })).json()).toEqual([]);
      expect([reuse.localEmulator, avoid.localEmulator]).toEqual([true, true]);
      expect(avoid.callTarget?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(avoid.callTarget?.baseUrl).not.toBe(`http://127.0.0.1:${blockedPort}`);
      // Test in Browser runs on each demo's own emulator, with the demo's assistant there, in the very first page.
      for (const demo of [reuse, avoid]) {
        expect(demo.localBrowserCalls).toBe(demo.callTarget?.baseUrl);
        const html = await (await fetch(demo.url)).text();
        const page = JSON.parse(/window\.__VOICE_CONFIG__=(.*?);<\/script>/.exec(html)?.[1] ?? 'null') as { localCalls: boolean; assistantId: string; apiBaseUrl: string };
        expect(page).toMatchObject({ localCalls: true, apiBaseUrl: demo.callTarget?.baseUrl });
        const assistant = await (await fetch(`${demo.callTarget?.baseUrl}/assistant/${page.assistantId}`, { headers: { authorization: 'Bearer k' } })).json();
        expect(assistant).toMatchObject({ name: 'voice demo (local)' });
      }
    } finally {
      await Promise.all([reuse.close(), avoid.close()]);
    }
  });

  it('refuses a foreign Host header (DNS rebinding) and gives every response the security headers', async () => {
    const demo = await startDemo({ ...quiet(), flags: { webhookUrl: 'http://127.0.0.1:9/x' } });
    try {
      const { request } = await import('node:http');
      const get = (host: string) =>
        new Promise<{ status?: number; headers: Record<string, unknown> }>((resolve, reject) => {
          const req = request(`${demo.origin}/acme`, { headers: { host, accept: 'text/html' } }, (res) => (res.resume(), resolve({ status: res.statusCode, headers: res.headers })));
          req.on('error', reject).end();
        });
      expect((await get('rebound.example')).status).toBe(403);
      const own = await get(new URL(demo.origin).host);
      expect(own.status).toBe(200);
      expect(own.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin', 'x-frame-options': 'DENY' });
      expect(String(own.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    } finally {
      await demo.close();
    }
  });

  it("serves the page's own modules with inline source maps and package modules without; DevTools finds a dependency's map on request", async () => {
    // A cache of its own: demos other test files start at the same time rewrite the shared one, and a
    // map read while another demo's optimizer swaps its files belongs to that other bundle.
    const cacheDir = mkdtempSync(join(tmpdir(), 'voice-demo-maps-'));
    const demo = await startDemo({ ...quiet(), flags: { webhookUrl: 'http://127.0.0.1:9/x' }, env: { ...process.env, VOICE_DEMO_CACHE_DIR: cacheDir } });
    const inline = 'sourceMappingURL=data:application/json;base64,';
    try {
      const get = async (path: string) => {
        const res = await fetch(new URL(path, demo.origin));
        expect(res.status, path).toBe(200);
        return res.text();
      };
      const main = await get('/src/main.tsx');
      expect(main).toContain(inline);
      const client = await get('/@vite/client');
      expect(client).toContain('createHotContext');
      expect(client).not.toContain('sourceMappingURL');
      expect(await get('/@react-refresh')).not.toContain('sourceMappingURL');
      const dep = /from "([^"]*\/react-dom_client\.js\?v=[^"]+)"/.exec(main)?.[1];
      expect(dep, 'react-dom/client as an optimized dependency').toBeDefined();
      const code = await get(dep as string);
      expect(code).toContain('createRoot');
      expect(code).not.toContain(inline);
      expect(code.trimEnd().endsWith('//# sourceMappingURL=react-dom_client.js.map')).toBe(true);
      // The browser resolves the comment against the module's URL.
      const map = JSON.parse(await get(new URL('react-dom_client.js.map', new URL(dep as string, demo.origin)).pathname)) as { version: number; sources: string[] };
      expect(map.version).toBe(3);
      expect(map.sources.some((source) => source.includes('react-dom-client.development.js'))).toBe(true);
    } finally {
      await demo.close();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('keeps the API key out of the page', async () => {
    const demo = await startDemo({ ...quiet(), env: { ...env, VOICE_API_KEY: 'sk-very-secret', VOICE_API_URL: emulator.url } });
    try {
      expect(demo.callTarget?.apiKey).toBe('sk-very-secret');
      // An API URL on loopback is an emulator: the demo's assistant takes the calls there.
      expect(demo.localEmulator).toBe(true);
      expect(await (await fetch(demo.url)).text()).not.toContain('sk-very-secret');
    } finally {
      await demo.close();
    }
  });
});

describe('the local Call Me webhook with the hosted visitors table', () => {
  it('places calls for visitors in the table and answers 404 for slugs that are not there', async () => {
    const file = join(dir, 'hosted.json');
    writeFileSync(file, JSON.stringify([{ slug: 'acme', name: 'Acme', system: 'Be Acme.', first_message: 'Hi.' }]));
    // The hosted database stand-in: the same PostgREST answers (and row rule) as the real table.
    const rest = visitorsMiddleware(new LiveVisitorsFile(file));
    const db = createServer((req, res) => rest(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((resolve) => db.listen(0, '127.0.0.1', resolve));
    const demo = await startDemo({ ...quiet(), flags: { supabaseUrl: `http://127.0.0.1:${(db.address() as AddressInfo).port}`, supabaseAnonKey: 'anon' } });
    try {
      const post = (slug: string) =>
        fetch(`${demo.origin}/__voice/call-me`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: '+14155550123', slug }) });
      const unknown = await post('nobody');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ ok: false, error: 'unknown-visitor' });
      const placed = await post('acme');
      expect(placed.status).toBe(200);
      const calls = (await (await fetch(`${demo.callTarget!.baseUrl}/call`, { headers: { authorization: 'Bearer k' } })).json()) as unknown[];
      expect(calls).toHaveLength(1);
      // The embedded emulator's call runs with the demo's assistant: it rings (no start error).
      const { callId } = (await placed.json()) as { callId: string };
      const status = async () => (await (await fetch(`${demo.callTarget!.baseUrl}/call/${callId}`, { headers: { authorization: 'Bearer k' } })).json()) as { status: string; endedReason?: string };
      await expect.poll(async () => (await status()).status, { timeout: 10_000 }).not.toBe('queued');
      const call = (await (await fetch(`${demo.callTarget!.baseUrl}/call/${callId}`, { headers: { authorization: 'Bearer k' } })).json()) as {
        status: string;
        endedReason?: string;
        assistantId?: string;
      };
      expect(call.endedReason).toBeUndefined();
      expect(call.assistantId).toBe(demo.config.page.assistantId);
    } finally {
      await demo.close();
      await new Promise((resolve) => db.close(resolve));
    }
  });
});

describe('visitorsFile', () => {
  it('prefers --visitors, then ./visitors.json, then the bundled sample', () => {
    const root = packageRoot();
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    expect(visitorsFile(undefined, cwd, root)).toBe(join(root, 'fixtures', 'visitors.json'));
    writeFileSync(join(cwd, 'visitors.json'), '[]');
    expect(visitorsFile(undefined, cwd, root)).toBe(join(cwd, 'visitors.json'));
    expect(visitorsFile('other.json', cwd, root)).toBe(join(cwd, 'other.json'));
  });
});

describe('watchIgnored', () => {
  it("leaves the inspector's app, tests and scripts unwatched, and watches the page's own files", () => {
    const ignored = watchIgnored('/repo/web');
    for (const file of [
      '/repo/web/e2e',
      '/repo/web/e2e/demo.test.ts',
      '/repo/web/inspector/src/App.tsx',
      '/repo/web/scripts/x.mjs',
      '/repo/web/src/App.test.tsx',
      '/repo/web/vite/phone-input-build.test.ts',
      '/repo/web/vite/flag-files.ts',
    ])
      expect(ignored.test(file), file).toBe(true);
    for (const file of ['/repo/web', '/repo/web/index.html', '/repo/web/src/App.tsx', '/repo/web/src/inspector.ts', '/repo/web/vite.config.ts', '/repo/web/src/vite.ts', '/repo/other/e2e/x.ts'])
      expect(ignored.test(file), file).toBe(false);
  });
});
