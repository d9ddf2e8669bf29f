// Files the tools write survive concurrent writers: the visitors file, the CLI config and the
// emulator's data file, each exercised by real `voice` processes running at the same time, plus
// a writer killed with SIGKILL while holding the lock with a half-written temp file.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, json } from './harness.js';
import { ROOT } from './build.js';

const h = fileHarness();
const dir = mkdtempSync(join(tmpdir(), 'voice-concurrency-'));
const holder = join(dir, 'holder.mjs');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  // A writer that takes the lock the way every tool does, leaves a half-written temp file, and
  // hangs until it is killed: what `kill -9` in the middle of a write leaves behind.
  const src = join(dir, 'holder.ts');
  writeFileSync(
    src,
    `import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { acquireFileLock } from ${JSON.stringify(join(ROOT, 'core/fs/locked-json.ts'))};
const file = process.argv[2];
await acquireFileLock(file);
writeFileSync(join(dirname(file), '.' + basename(file) + '.' + process.pid + '.0badf00d.tmp'), '[{"slug": "half');
process.stdout.write('held\\n');
setInterval(() => undefined, 1000);`,
  );
  await build({
    entryPoints: [src],
    outfile: holder,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
});

const visitorEnv = { VOICE_DEMO_URL: 'https://demo.example', VOICE_SUPABASE_URL: '', VOICE_SUPABASE_SERVICE_ROLE_KEY: '', NO_COLOR: '1' };
const create = (file: string, slug: string) =>
  h.current.voice(['visitor', 'create', slug, '--name', `Name ${slug}`, '--system', 's', '--first-message', 'f', '--visitors', file], { env: visitorEnv, timeout: 60_000 });

function spawnHolder(file: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [holder, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => resolve(child));
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('concurrent writers', () => {
  it('4 concurrent writers x 25 `voice visitor create` keep all 100 visitors', async () => {
    const file = join(dir, 'visitors.json');
    const writer = async (w: number): Promise<number[]> => {
      const codes: number[] = [];
      for (let i = 0; i < 25; i++) codes.push((await create(file, `w${w}-v${i}`)).exitCode);
      return codes;
    };
    const codes = (await Promise.all([0, 1, 2, 3].map(writer))).flat();
    expect(codes.filter((c) => c !== 0)).toEqual([]);
    const slugs = (JSON.parse(readFileSync(file, 'utf8')) as { slug: string }[]).map((v) => v.slug);
    expect(slugs).toHaveLength(100);
    expect(new Set(slugs).size).toBe(100);
    // No lock folder or temp file is left behind.
    expect(readdirSync(dir).filter((n) => n.includes('visitors.json'))).toEqual(['visitors.json']);
  }, 240_000);

  it('two concurrent `voice login --profile` keep both profiles (five rounds)', async () => {
    const config = join(h.current.configDir, 'voice', 'config.json');
    for (let round = 0; round < 5; round++) {
      const names = [`a${round}`, `b${round}`];
      const runs = await Promise.all(names.map((p) => h.current.voice(['login', '--with-token', '--profile', p], { env: { VOICE_API_KEY: undefined }, input: `sk-key-${p}-0000000000\n` })));
      for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
      const profiles = (JSON.parse(readFileSync(config, 'utf8')) as { profiles: Record<string, { apiKey: string }> }).profiles;
      for (const p of names) expect(profiles[p]?.apiKey).toBe(`sk-key-${p}-0000000000`);
    }
    expect(Object.keys((JSON.parse(readFileSync(config, 'utf8')) as { profiles: object }).profiles)).toHaveLength(10);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(h.current.configDir, 'voice'))).toEqual(['config.json']);
  }, 120_000);

  it('a second `voice dev --data` on a file in use exits 2 naming the flag, and leaves the file alone', async () => {
    const file = join(dir, 'dev.json');
    const first = spawn(process.execPath, [join(ROOT, 'bin/voice.js'), 'dev', '--port', '0', '--data', file, '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve) => first.stdout.on('data', (d: Buffer) => resolve(d.toString().trim())));
    try {
      const made = (await (await fetch(`${url}/assistant`, { method: 'POST', headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: '{"name":"first"}' })).json()) as {
        id: string;
      };
      const before = readFileSync(file, 'utf8');
      const second = await h.current.voice(['dev', '--port', '0', '--data', file]);
      expect(second.exitCode).toBe(2);
      expect(second.stderr).toContain(`--data ${file}: the file is in use by another running \`voice dev\``);
      expect(second.stderr).toContain('voice dev --data other.json');
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(before).toContain(made.id);
    } finally {
      first.kill('SIGINT');
      await new Promise((resolve) => first.once('exit', resolve));
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 60_000);

  it("a killed writer's lock and half-written temp file neither block nor litter the next run", async () => {
    const file = join(dir, 'killed.json');
    writeFileSync(file, '[]\n');
    const child = await spawnHolder(file);
    expect(existsSync(`${file}.lock`)).toBe(true);
    await kill9(child);
    expect(readdirSync(dir).filter((n) => n.includes('killed.json'))).toHaveLength(3);
    const r = await create(file, 'after-kill');
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { slug: string }[]).map((v) => v.slug)).toEqual(['after-kill']);
    expect(readdirSync(dir).filter((n) => n.includes('killed.json'))).toEqual(['killed.json']);
  }, 60_000);

  it("a killed emulator's lock and temp file do not keep `voice dev --data` from starting", async () => {
    const file = join(dir, 'killed-dev.json');
    const child = await spawnHolder(file);
    await kill9(child);
    const next = spawn(process.execPath, [join(ROOT, 'bin/voice.js'), 'dev', '--port', '0', '--data', file, '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    next.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      next.stdout.on('data', (d: Buffer) => resolve(d.toString().trim()));
      next.on('exit', (code) => reject(new Error(`voice dev exited ${code}: ${stderr}`)));
    });
    const list = await fetch(`${url}/assistant`, { headers: { authorization: 'Bearer x' } });
    expect(json({ exitCode: 0, stdout: await list.text(), stderr: '' })).toEqual([]);
    expect(readdirSync(dir).filter((n) => n.includes('killed-dev.json'))).toEqual(['killed-dev.json', 'killed-dev.json.lock']);
    next.kill('SIGINT');
    await new Promise((resolve) => next.once('exit', resolve));
    expect(readdirSync(dir).filter((n) => n.includes('killed-dev.json'))).toEqual(['killed-dev.json']);
  }, 60_000);
});
