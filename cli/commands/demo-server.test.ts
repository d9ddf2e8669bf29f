import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../core/emulator/index.js';
import { CliError } from '../errors.js';
import { packageRoot, startDemo, visitorsFile, type DemoOptions } from './demo-server.js';

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

  it('reuses an emulator already on the preferred port, and avoids a port held by something else', async () => {
    const reuse = await startDemo({ ...quiet(), emulatorPort: Number(new URL(emulator.url).port) });
    const avoid = await startDemo({ ...quiet(), emulatorPort: blockedPort });
    try {
      expect(reuse.callTarget?.baseUrl).toBe(emulator.url);
      expect([reuse.localEmulator, avoid.localEmulator]).toEqual([true, true]);
      expect(avoid.callTarget?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(avoid.callTarget?.baseUrl).not.toBe(`http://127.0.0.1:${blockedPort}`);
    } finally {
      await Promise.all([reuse.close(), avoid.close()]);
    }
  });

  it('keeps the API key out of the page', async () => {
    const demo = await startDemo({ ...quiet(), env: { ...env, VOICE_API_KEY: 'sk-very-secret', VOICE_API_URL: emulator.url } });
    try {
      expect(demo.callTarget?.apiKey).toBe('sk-very-secret');
      expect(demo.localEmulator).toBe(false);
      expect(await (await fetch(demo.url)).text()).not.toContain('sk-very-secret');
    } finally {
      await demo.close();
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
