// `voice demo` from the built CLI (bin/voice.js): clear messages and exit codes when it cannot
// start, the page served at the URL it prints, and a clean exit on Ctrl-C.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './build.js';

const BIN = join(ROOT, 'bin', 'voice.js');
let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'voice-demo-cli-'));
  // No key, profile or hosted settings from the machine; an API URL that is never called keeps
  // the demo from starting (or reusing) an emulator on 127.0.0.1:4010.
  env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), NO_COLOR: '1', VOICE_API_URL: 'http://127.0.0.1:9' };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => execa(process.execPath, [BIN, ...args], { cwd: dir, env, extendEnv: false, reject: false, input: '', timeout: 30_000 });

describe('voice demo from the built CLI', () => {
  it('says what is wrong and how to fix it: a bad slug, a missing visitors file, a busy port', async () => {
    const busy: Server = await new Promise((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
    });
    const port = String((busy.address() as { port: number }).port);
    try {
      const cases: [string[], number, string, string][] = [
        [['demo', '--slug', 'Bad Slug'], 2, 'Error: Invalid slug "Bad Slug"', 'Example: --slug acme'],
        [['demo', '--visitors', join(dir, 'missing.json')], 2, `Error: Cannot read ${join(dir, 'missing.json')}`, 'Pass --visitors FILE'],
        [['demo', '--port', port, '--verbose'], 1, `Error: Port ${port} on 127.0.0.1 is already in use.`, 'Pass --port <number>'],
      ];
      const results = await Promise.all(cases.map(([args]) => run(args)));
      cases.forEach(([args, code, message, hint], i) => {
        const r = results[i]!;
        expect(r.exitCode, args.join(' ')).toBe(code);
        expect(r.stdout, args.join(' ')).toBe('');
        expect(r.stderr, args.join(' ')).toContain(message);
        expect(r.stderr, args.join(' ')).toContain(hint);
        expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
      });
    } finally {
      busy.close();
    }
  });

  it('serves the page at the URL it prints and exits 0 on Ctrl-C', async () => {
    const child = execa(process.execPath, [BIN, 'demo', '--slug', 'acme', '--port', '0'], { cwd: dir, env, extendEnv: false, reject: false, timeout: 30_000 });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        const found = /http:\/\/\S+/.exec(String(chunk));
        if (found) resolve(found[0]);
      });
      void child.then((r) => reject(new Error(`exited ${r.exitCode}: ${String(r.stderr)}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/acme$/);
    const html = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<div id="root">');
    expect(html).toContain('window.__VOICE_CONFIG__=');
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout).trim()).toBe(url);
  });
});
