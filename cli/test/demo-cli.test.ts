// `voice demo` on the fast lane (dist/cli/fast.cjs recognises it, dist/cli/demo.js runs it) against
// the full program (dist/cli/main.js run directly): the same output and exit code when it cannot
// start, the same page and messages when it serves, and a clean exit on Ctrl-C.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './build.js';

const BIN = join(ROOT, 'bin', 'voice.js');
const FULL = join(ROOT, 'dist', 'cli', 'main.js');
let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'voice-fast-demo-'));
  // No key, profile or hosted settings from the machine; an API URL that is never called keeps
  // the demo from starting (or reusing) an emulator on 127.0.0.1:4010.
  env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), NO_COLOR: '1', VOICE_API_URL: 'http://127.0.0.1:9' };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (script: string, args: string[]) => execa(process.execPath, [script, ...args], { cwd: dir, env, extendEnv: false, reject: false, input: '', timeout: 30_000 });

/** Which lane a command line takes: a copy of the launcher whose demo lane and full program only say they were reached. */
async function lane(args: string[]): Promise<string> {
  const copy = join(dir, 'lane');
  mkdirSync(join(copy, 'bin'), { recursive: true });
  mkdirSync(join(copy, 'dist', 'cli'), { recursive: true });
  for (const file of ['voice.js', 'package.json']) copyFileSync(join(ROOT, 'bin', file), join(copy, 'bin', file));
  for (const file of ['fast.cjs', 'fast-read.cjs']) copyFileSync(join(ROOT, 'dist', 'cli', file), join(copy, 'dist', 'cli', file));
  writeFileSync(join(copy, 'dist', 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(copy, 'dist', 'cli', 'demo.js'), "export function runDemoLane() { process.stdout.write('DEMO LANE'); process.exit(0); }\n");
  writeFileSync(join(copy, 'dist', 'cli', 'main.js'), "process.stdout.write('FULL PROGRAM');\n");
  return (await run(join(copy, 'bin', 'voice.js'), args)).stdout;
}

describe('voice demo on the fast lane', () => {
  it('takes plain demo command lines and leaves help and demo build to the full program', async () => {
    expect(await lane(['demo', '--slug', 'acme', '--port', '0'])).toBe('DEMO LANE');
    expect(await lane(['demo', '--help'])).toBe('FULL PROGRAM');
    expect(await lane(['demo', 'build'])).toBe('FULL PROGRAM');
    expect(await lane(['demo', '--port', 'x'])).toBe('FULL PROGRAM');
  });

  it('fails as the full program does: a bad slug, a missing visitors file, a busy port', async () => {
    const busy: Server = await new Promise((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
    });
    const port = String((busy.address() as { port: number }).port);
    try {
      for (const args of [
        ['demo', '--slug', 'Bad Slug'],
        ['demo', '--visitors', join(dir, 'missing.json')],
        ['demo', '--port', port, '--verbose'],
      ]) {
        const [fast, full] = await Promise.all([run(BIN, args), run(FULL, args)]);
        expect(fast.exitCode, args.join(' ')).toBe(full.exitCode);
        expect(fast.exitCode, args.join(' ')).not.toBe(0);
        expect(fast.stdout).toBe(full.stdout);
        expect(fast.stderr).toBe(full.stderr);
        expect(fast.stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      busy.close();
    }
  });

  it('serves the page, says what the full program says, and exits 0 on Ctrl-C', async () => {
    const results: { stdout: string; stderr: string; exitCode?: number; html: string }[] = [];
    for (const script of [BIN, FULL]) {
      const child = execa(process.execPath, [script, 'demo', '--slug', 'acme', '--port', '0'], { cwd: dir, env, extendEnv: false, reject: false, timeout: 30_000 });
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          const found = /http:\/\/\S+/.exec(String(chunk));
          if (found) resolve(found[0]);
        });
        void child.then((r) => reject(new Error(`exited ${r.exitCode}: ${String(r.stderr)}`)));
      });
      const html = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
      child.kill('SIGINT');
      const r = await child;
      results.push({ stdout: String(r.stdout).replace(/:\d+\//, ':PORT/'), stderr: String(r.stderr), exitCode: r.exitCode, html: html.replace(/nonce-[^"']+|nonce="[^"]+"/g, 'nonce') });
    }
    const [fast, full] = results as [(typeof results)[0], (typeof results)[0]];
    expect(fast.exitCode).toBe(0);
    expect(fast).toEqual(full);
    expect(fast.stdout).toBe('http://127.0.0.1:PORT/acme');
    expect(fast.html).toContain('<div id="root">');
  });
});
