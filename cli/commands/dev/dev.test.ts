// `voice dev`: prints its URL, serves, stops cleanly on SIGINT/SIGTERM, and names the port
// and the flag when the port is taken. In-process through commander, and as a real process.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from 'voice-agent-core/emulator';
import { CliError } from '../../errors.js';
import { ensureBuilt } from '../../test/build.js';
import { devCommand } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'voice-dev-'));
const entry = join(dir, 'dev.mjs');
const root = fileURLToPath(new URL('../../../', import.meta.url));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  let onOut: (() => void) | undefined;
  return {
    out,
    err,
    io: { out: (t: string) => (out.push(t), onOut?.()), err: (t: string) => void err.push(t) },
    firstLine: () =>
      new Promise<string>((resolve) => {
        if (out.length) resolve((out[0] as string).trim());
        else onOut = () => resolve((out[0] as string).trim());
      }),
  };
}

beforeAll(async () => {
  // A stand-in for bin/voice.js that runs only `voice dev`, with the CLI's error reporting.
  const src = join(dir, 'entry.ts');
  writeFileSync(
    src,
    `import { devCommand } from ${JSON.stringify(join(root, 'cli/commands/dev/index.ts'))};
import { reportError } from ${JSON.stringify(join(root, 'cli/fail.ts'))};
try { await devCommand().parseAsync(process.argv.slice(2), { from: 'user' }); process.exit(0); }
catch (e) { process.exit(reportError(e, false)); }`,
  );
  await build({
    entryPoints: [src],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    // As in the real build: the optional audio package is loaded from node_modules, never bundled.
    external: ['voice-agent-audio'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('voice dev in-process', () => {
  it('serves the inspector and names it in the banner; --no-inspector leaves it out', async () => {
    ensureBuilt();
    for (const off of [false, true]) {
      const t = io();
      const running = devCommand(t.io).parseAsync(['--port', '0', '--quiet', ...(off ? ['--no-inspector'] : [])], { from: 'user' });
      const url = await t.firstLine();
      const page = await fetch(`${url}/__voice/inspector/`);
      if (off) {
        expect(t.err.join('')).not.toContain('Inspector');
        expect(page.status).toBe(404);
      } else {
        expect(t.err.join('')).toContain(`Inspector: ${url}/__voice/inspector/`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root"></div>');
      }
      process.emit('SIGINT');
      await running;
    }
  });

  it('prints its URL and how to use it, serves seed data, and stops on SIGINT', async () => {
    const t = io();
    const running = devCommand(t.io).parseAsync(['--port', '0', '--seed', '--quiet'], { from: 'user' });
    const url = await t.firstLine();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const help = t.err.join('');
    expect(help).toContain(`voice assistant list --local --api-url ${url}`);
    expect(help).toContain(`createClient({ baseUrl: '${url}'`);
    const res = await fetch(`${url}/assistant`, { headers: { authorization: 'Bearer x' } });
    expect(((await res.json()) as unknown[]).length).toBeGreaterThan(0);
    process.emit('SIGINT');
    await running;
    await expect(fetch(`${url}/assistant`)).rejects.toThrow();
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('requires the --api-key it was given', async () => {
    const t = io();
    const running = devCommand(t.io).parseAsync(['--port', '0', '--api-key', 'k1-secret-key', '--quiet'], { from: 'user' });
    const url = await t.firstLine();
    expect((await fetch(`${url}/assistant`, { headers: { authorization: 'Bearer k2' } })).status).toBe(401);
    expect((await fetch(`${url}/assistant`, { headers: { authorization: 'Bearer k1-secret-key' } })).status).toBe(200);
    process.emit('SIGTERM');
    await running;
    // The banner explains how to use the key without ever printing it.
    const printed = [...t.out, ...t.err].join('');
    expect(printed).toContain('VOICE_API_KEY');
    expect(printed).not.toContain('k1-secret-key');
  });

  it('lets --cors-origin pages call it, says so in the banner, and refuses other pages', async () => {
    const t = io();
    const running = devCommand(t.io).parseAsync(['--port', '0', '--quiet', '--cors-origin', 'https://app.example.test/', '--cors-origin', 'http://192.168.1.20:3000'], { from: 'user' });
    const url = await t.firstLine();
    expect(t.err.join('')).toContain('Browser: pages on http://127.0.0.1:*, http://localhost:*, http://[::1]:*, https://app.example.test, http://192.168.1.20:3000 may call it;');
    const allowed = await fetch(`${url}/assistant`, { headers: { authorization: 'Bearer x', origin: 'https://app.example.test' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.test');
    expect((await fetch(`${url}/assistant`, { headers: { authorization: 'Bearer x', origin: 'https://other.example.test' } })).status).toBe(403);
    process.emit('SIGINT');
    await running;
  });

  it('names the port and the flag when the port is taken', async () => {
    const other = await startEmulator();
    try {
      const err = await devCommand(io().io)
        .parseAsync(['--port', String(other.port)], { from: 'user' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CliError);
      expect((err as CliError).message).toContain(`Port ${other.port}`);
      expect((err as CliError).hint).toContain('--port');
    } finally {
      await other.close();
    }
  });

  it('refuses a corrupt data file as a usage error and leaves it alone', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, 'not json');
    const err = await devCommand(io().io)
      .parseAsync(['--port', '0', '--data', file], { from: 'user' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect((err as CliError).message).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });
});

function run(args: string[], script = entry) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => stdout.includes('\n') && resolve(stdout.split('\n')[0] as string));
    void exit.then(() => reject(new Error(`exited early: ${stderr}`)));
  });
  // Not every test waits for the URL; an early exit is then expected, not unhandled.
  url.catch(() => undefined);
  return { child, url, exit, output: () => ({ stdout, stderr }) };
}

// The bin/voice.js tests may first rebuild dist/ (ensureBuilt), hence their longer timeouts.
describe('voice dev as a process', () => {
  it('serves, logs requests, and exits 0 on SIGINT', async () => {
    const p = run(['--port', '0']);
    const url = await p.url;
    expect((await fetch(`${url}/squad`, { headers: { authorization: 'Bearer x' } })).status).toBe(200);
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(0);
    expect(p.output().stderr).toMatch(/GET \/squad 200/);
  });

  it('exits 1 with the port and --port in the message when the port is taken', async () => {
    const other = await startEmulator();
    try {
      const p = run(['--port', String(other.port)]);
      expect(await p.exit).toBe(1);
      expect(p.output().stderr).toContain(`Port ${other.port}`);
      expect(p.output().stderr).toContain('--port');
    } finally {
      await other.close();
    }
  });

  it('runs through bin/voice.js: prints the URL, serves, exits 0 on SIGINT; a busy port exits 1 naming --port', async () => {
    ensureBuilt();
    const bin = join(root, 'bin/voice.js');
    const p = run(['dev', '--port', '0', '--api-key', 'k1'], bin);
    const url = await p.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/tool`, { headers: { authorization: 'Bearer k1' } })).status).toBe(200);
    expect((await fetch(`${url}/tool`, { headers: { authorization: 'Bearer k2' } })).status).toBe(401);
    const busy = run(['dev', '--port', url.split(':').pop() as string], bin);
    expect(await busy.exit).toBe(1);
    expect(busy.output().stderr).toMatch(/Port \d+ on 127\.0\.0\.1 is already in use/);
    expect(busy.output().stderr).toContain('--port');
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(0);
    expect(p.output().stderr).toContain('Local platform emulator on');
  }, 120_000);

  it('keeps --data objects across a SIGKILL of `voice dev`', async () => {
    ensureBuilt();
    const bin = join(root, 'bin/voice.js');
    const file = join(dir, 'dev-data.json');
    const first = run(['dev', '--port', '0', '--data', file, '--quiet'], bin);
    const url = await first.url;
    const made = await (await fetch(`${url}/assistant`, { method: 'POST', headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: '{"name":"kept"}' })).json();
    first.child.kill('SIGKILL');
    await first.exit;
    // What a kill in the middle of a write leaves: a temp file beside the data file.
    const temp = join(dir, '.dev-data.json.99999.deadbeef.tmp');
    writeFileSync(temp, '{"format": "voice-emulator", "collec');
    const second = run(['dev', '--port', '0', '--data', file, '--quiet'], bin);
    const again = await second.url;
    const got = await fetch(`${again}/assistant/${made.id}`, { headers: { authorization: 'Bearer x' } });
    expect(await got.json()).toMatchObject({ id: made.id, name: 'kept' });
    expect(existsSync(temp)).toBe(false);
    second.child.kill('SIGINT');
    expect(await second.exit).toBe(0);
    // The start says what it recovered.
    expect(second.output().stderr).toMatch(/Data: +\S+dev-data\.json; loaded \d+ objects \(0 calls\); removed 1 half-written temp file a stopped run left/);
  }, 120_000);
});
