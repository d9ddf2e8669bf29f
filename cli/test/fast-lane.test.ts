// The fast lane (dist/cli/fast.cjs, tried first by bin/voice.js) against the full program
// (dist/cli/main.js run directly): for every read it takes, the same stdout byte for byte, the
// same exit code and the same stderr (request ids aside), with keys and URLs from flags, the
// environment and profiles; and everything unusual left to the full program.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from './build.js';
import { KEY, captured, fileHarness, harness } from './harness.js';
import type { Run } from './harness.js';
import { withoutSpinner } from './tty.js';

const hf = fileHarness({ apiKey: KEY });
const WRONG = 'sk-wrong-key-000000000000';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

type Env = Record<string, string | undefined>;

async function node(script: string, args: readonly string[], env: Env = {}): Promise<Run> {
  const merged: Record<string, string> = { ...hf.current.env };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete merged[k];
    else merged[k] = v;
  }
  const r = await execa(process.execPath, [script, ...args], { env: merged, extendEnv: false, reject: false, input: '', timeout: 20_000, cwd: hf.current.home, stripFinalNewline: false });
  const run = { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  captured.push(run.stdout, run.stderr);
  return run;
}

const viaBin = (args: readonly string[], env?: Env): Promise<Run> => node(join(ROOT, 'bin', 'voice.js'), args, env);
const viaFull = (args: readonly string[], env?: Env): Promise<Run> => node(join(ROOT, 'dist', 'cli', 'main.js'), args, env);

/**
 * A copy of bin/voice.js and the fast lane's two files whose full program only says it was
 * reached: tells which lane ran a command line (the fast lane's files import nothing else).
 */
let laneDir: string | undefined;
function laneBin(): string {
  if (!laneDir) {
    laneDir = mkdtempSync(join(tmpdir(), 'voice-lane-'));
    mkdirSync(join(laneDir, 'bin'));
    mkdirSync(join(laneDir, 'dist', 'cli'), { recursive: true });
    copyFileSync(join(ROOT, 'bin', 'voice.js'), join(laneDir, 'bin', 'voice.js'));
    copyFileSync(join(ROOT, 'bin', 'package.json'), join(laneDir, 'bin', 'package.json'));
    for (const file of ['fast.cjs', 'fast-read.cjs']) copyFileSync(join(ROOT, 'dist', 'cli', file), join(laneDir, 'dist', 'cli', file));
    writeFileSync(join(laneDir, 'dist', 'cli', 'main.js'), "process.stderr.write('FULL PROGRAM\\n');\nprocess.exit(99);\n");
  }
  return join(laneDir, 'bin', 'voice.js');
}
async function lane(args: readonly string[], env?: Env): Promise<'fast' | 'full'> {
  const run = await node(laneBin(), args, env);
  return run.exitCode === 99 && run.stderr === 'FULL PROGRAM\n' ? 'full' : 'fast';
}

/** Runs both lanes and checks they agree; returns the fast lane's run. */
async function same(args: readonly string[], env?: Env): Promise<Run> {
  expect(await lane(args, env), `${args.join(' ')} should take the fast lane`).toBe('fast');
  const [fast, full] = await Promise.all([viaBin(args, env), viaFull(args, env)]);
  expect(fast.stdout, args.join(' ')).toBe(full.stdout);
  expect(fast.exitCode, args.join(' ')).toBe(full.exitCode);
  expect(fast.stderr.replace(UUID, '<id>'), args.join(' ')).toBe(full.stderr.replace(UUID, '<id>'));
  return fast;
}

async function seed(): Promise<string> {
  const made = await viaBin(['assistant', 'create', '--set', 'name=Fast lane', '--set', 'firstMessage=Hi', '--json']);
  expect(made.exitCode, made.stderr).toBe(0);
  return (JSON.parse(made.stdout) as { id: string }).id;
}

function writeConfig(profiles: Record<string, { apiKey?: string; baseUrl?: string }>, dir = hf.current.configDir): void {
  mkdirSync(join(dir, 'voice'), { recursive: true });
  writeFileSync(join(dir, 'voice', 'config.json'), JSON.stringify({ profiles }));
}

describe('the fast lane prints what the full program prints', () => {
  it('its files bring no Ink, React or undici with them (each would cost more than the lane saves)', () => {
    for (const file of ['fast.cjs', 'fast-read.cjs']) {
      const code = readFileSync(join(ROOT, 'dist', 'cli', file), 'utf8');
      expect(code.length, file).toBeLessThan(100_000);
      expect(code, file).not.toMatch(/react-devtools-core|require\("(?:ink|react|undici)"\)/);
    }
  });

  it('lists and gets, as JSON and piped, nested resources and paginated lists too', async () => {
    const id = await seed();
    await seed();
    const list = await same(['assistant', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { id: string }[]).map((a) => a.id)).toContain(id);
    expect((await same(['assistant', 'list'])).stdout).toContain(`${id}\tFast lane`);
    expect(JSON.parse((await same(['assistant', 'get', id, '--json'])).stdout)).toMatchObject({ id, name: 'Fast lane' });
    expect((await same(['assistant', 'get', id])).stdout).toContain('Fast lane');
    await same(['--json', 'assistant', 'get', id]);
    await same(['squad', 'list']);
    await same(['eval', 'simulation', 'suite', 'list', '--json']);
    await same(['structured-output', 'list', '--json']);
    await same(['structured-output', 'list']);
  });

  it('reports failures the same way: 404, rejected key, no key, unreachable API, bad flags values', async () => {
    const missing = await same(['assistant', 'get', 'no-such-id', '--json']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('404');
    expect((await same(['assistant', 'list', '--json'], { VOICE_API_KEY: WRONG })).exitCode).toBe(4);
    const noKey = await same(['assistant', 'list'], { VOICE_API_KEY: undefined });
    expect(noKey.exitCode).toBe(4);
    expect(noKey.stderr).toContain('voice login');
    expect((await same(['assistant', 'list', '--api-url', 'http://127.0.0.1:9'])).exitCode).toBe(1);
    expect((await same(['assistant', 'list', '--api-url', 'ftp://example.test'])).exitCode).toBe(2);
    expect((await same(['assistant', 'list', '--profile', 'bad name'])).exitCode).toBe(2);
  });

  it('takes keys and URLs from flags over the environment over profiles (an explicit --profile over the environment)', async () => {
    const emu = hf.current.emu.url;
    writeConfig({ default: { apiKey: WRONG, baseUrl: 'http://127.0.0.1:9' }, good: { apiKey: KEY, baseUrl: emu }, bad: { apiKey: WRONG } });
    // The environment's key and URL beat the default profile.
    expect((await same(['assistant', 'list', '--json'])).exitCode).toBe(0);
    // Without them, the default profile's wrong URL is used...
    expect((await same(['assistant', 'list', '--json'], { VOICE_API_KEY: undefined, VOICE_API_URL: undefined })).exitCode).toBe(1);
    // ...unless a flag names the URL (the profile's wrong key then answers 401).
    expect((await same(['assistant', 'list', '--json', '--api-url', emu], { VOICE_API_KEY: undefined, VOICE_API_URL: undefined })).exitCode).toBe(4);
    expect((await same(['assistant', 'list', '--json', `--api-url=${emu}`, '--api-key', KEY], { VOICE_API_KEY: undefined, VOICE_API_URL: undefined })).exitCode).toBe(0);
    // An explicit profile beats the environment; VOICE_PROFILE chooses like --profile.
    expect((await same(['assistant', 'list', '--json', '--profile', 'bad'])).exitCode).toBe(4);
    expect((await same(['assistant', 'list', '--json', '--profile', 'good'], { VOICE_API_KEY: WRONG, VOICE_API_URL: 'http://127.0.0.1:9' })).exitCode).toBe(0);
    expect((await same(['assistant', 'list'], { VOICE_PROFILE: 'good', VOICE_API_KEY: undefined, VOICE_API_URL: undefined })).exitCode).toBe(0);
    // --api-key beats everything.
    expect((await same(['assistant', 'list', '--json', '--profile', 'good', '--api-key', WRONG])).exitCode).toBe(4);
    // A broken config file is a usage error.
    writeFileSync(join(hf.current.configDir, 'voice', 'config.json'), '{"profiles": ');
    expect((await same(['assistant', 'list', '--json'], { VOICE_API_KEY: undefined })).exitCode).toBe(2);
    writeConfig({});
  });

  it('uses the placeholder key with --local, and --api-url with it', async () => {
    // This file's emulator wants the test key, so it refuses the placeholder: the same 401 both ways.
    expect((await same(['assistant', 'list', '--json', '--local', '--api-url', hf.current.emu.url], { VOICE_API_KEY: undefined })).exitCode).toBe(4);
    const loose = await harness();
    try {
      const run = await same(['assistant', 'list', '--json', '--api-url', loose.emu.url, '--local'], { VOICE_API_KEY: undefined });
      expect(run.exitCode).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual([]);
    } finally {
      await loose.close();
    }
  });

  it('honours --no-color and NO_COLOR like the full program', async () => {
    await same(['assistant', 'get', 'nope', '--no-color']);
    await same(['assistant', 'get', 'nope'], { NO_COLOR: '1' });
  });

  it('prints the version', async () => {
    expect((await same(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
    await same(['-V']);
  });
});

/** Runs a script on a pseudo-terminal (util-linux `script`); stdout and stderr arrive together. */
/** Both programs draw relative dates against this instant, so their tables match whenever each runs. */
const PINNED_NOW = '2030-01-01T00:00:00.000Z';

async function onTty(script: string, args: readonly string[]): Promise<Run> {
  const quote = (x: string): string => `'${x.replace(/'/g, `'\\''`)}'`;
  const cmd = `stty cols 120 rows 50 2>/dev/null; ${[process.execPath, script, ...args].map(quote).join(' ')}`;
  const r = await execa('script', ['-qec', cmd, '/dev/null'], {
    env: { ...hf.current.env, TERM: 'xterm-256color', VOICE_NOW: PINNED_NOW },
    extendEnv: false,
    reject: false,
    timeout: 20_000,
    stripFinalNewline: false,
  });
  const run = { exitCode: r.exitCode ?? -1, stdout: withoutSpinner(String(r.stdout).replace(/\r\n/g, '\n')), stderr: String(r.stderr) };
  captured.push(run.stdout, run.stderr);
  return run;
}

describe('on a terminal', () => {
  it('draws the same Ink tables and views as the full program, from the Ink script', async () => {
    const id = await seed();
    for (const args of [
      ['assistant', 'list'],
      ['assistant', 'get', id],
      ['assistant', 'list', '--no-color'],
      ['tool', 'list'],
    ]) {
      const fast = await onTty(join(ROOT, 'bin', 'voice.js'), args);
      const full = await onTty(join(ROOT, 'dist', 'cli', 'main.js'), args);
      expect(fast.stdout, args.join(' ')).toBe(full.stdout);
      expect(fast.exitCode, args.join(' ')).toBe(full.exitCode);
      // The pinned clock reached both: the seeded assistants were made years before it.
      if (args.join(' ') === 'assistant list') expect(fast.stdout).toMatch(/\d+ years? ago/);
    }
    expect((await onTty(join(ROOT, 'bin', 'voice.js'), ['assistant', 'list'])).stdout).toContain('Fast lane');
    // The lane's copy has no Ink script beside it: the full program draws instead.
    expect((await onTty(laneBin(), ['assistant', 'list'])).stdout).toContain('FULL PROGRAM');
  });

  it('prints --json as the full program does on a terminal (pretty)', async () => {
    await seed();
    const fast = await onTty(laneBin(), ['assistant', 'list', '--json']);
    expect(fast.stdout).not.toContain('FULL PROGRAM');
    const full = await onTty(join(ROOT, 'dist', 'cli', 'main.js'), ['assistant', 'list', '--json']);
    expect(fast.stdout).toBe(full.stdout);
    expect(fast.stdout).toMatch(/^\[\n {2}\{/);
  });
});

describe('anything unusual goes to the full program', () => {
  it.each([
    [['--help']],
    [['assistant', 'list', '--help']],
    [['assistant', 'list', '--all', '--json']],
    [['assistant', 'list', '--limit', '2']],
    [['assistant', 'list', '--verbose']],
    [['assistant', 'list', '--dry-run']],
    [['assistant', 'list', '--bogus']],
    [['assistant', 'list', 'extra']],
    [['assistant', 'get']],
    [['assistant', 'get', 'a', 'b']],
    [['assistant', 'get', '--', 'x']],
    [['assistant', 'list', '--profile']],
    [['assistant', 'list', '--profile', '--json']],
    [['assistant', 'create', '--set', 'name=x']],
    [['assistant', 'delete', 'x', '--yes']],
    [['call', 'recording', 'get', 'x']],
    [['api', 'GET', '/assistant']],
    [['--version', '--json']],
    [[]],
  ])('%j', async (args) => {
    expect(await lane(args)).toBe('full');
  });

  it('with a proxy configured (undici carries those requests)', async () => {
    expect(await lane(['assistant', 'list', '--json'], { HTTPS_PROXY: 'http://127.0.0.1:9' })).toBe('full');
  });
});
