// Persistence: the data file survives SIGKILL, concurrent writes are never lost, and a
// corrupt file is refused with a clear error and left untouched.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFileError, startEmulator } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'voice-emu-'));
const entry = join(dir, 'emulator.mjs');
const H = { authorization: 'Bearer k', 'content-type': 'application/json' };

beforeAll(async () => {
  // The emulator as a real separate process, bundled the way the CLI bundles it.
  const src = join(dir, 'entry.ts');
  writeFileSync(
    src,
    `import { startEmulator } from ${JSON.stringify(fileURLToPath(new URL('../index.ts', import.meta.url)))};
const emu = await startEmulator({ dataFile: process.argv[2] });
process.stdout.write(emu.url + '\\n');`,
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

function spawnEmulator(dataFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [entry, dataFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ child, url: out.trim() });
    });
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}: ${err}`)));
  });
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('data file', () => {
  it('keeps every acknowledged object across a SIGKILL, including 200 concurrent creates', async () => {
    const file = join(dir, 'kill.json');
    const first = await spawnEmulator(file);
    const created = await Promise.all(
      Array.from({ length: 200 }, (_, i) => fetch(`${first.url}/assistant`, { method: 'POST', headers: H, body: JSON.stringify({ name: `a${i}` }) }).then((r) => r.json() as Promise<{ id: string }>)),
    );
    const patched = await fetch(`${first.url}/assistant/${created[0]?.id}`, { method: 'PATCH', headers: H, body: '{"name":"renamed"}' });
    expect(patched.status).toBe(200);
    await kill9(first.child);

    const second = await spawnEmulator(file);
    try {
      const list = (await (await fetch(`${second.url}/assistant?limit=1000`, { headers: H })).json()) as Array<{ id: string; name: string }>;
      expect(new Set(list.map((a) => a.id))).toEqual(new Set(created.map((a) => a.id)));
      expect(list.find((a) => a.id === created[0]?.id)?.name).toBe('renamed');
    } finally {
      await kill9(second.child);
    }
  });

  it('is always a complete file when killed in the middle of a stream of writes', async () => {
    const file = join(dir, 'stream.json');
    const { child, url } = await spawnEmulator(file);
    let acked = 0;
    const writers = Array.from({ length: 8 }, async () => {
      for (;;) {
        const res = await fetch(`${url}/tool`, { method: 'POST', headers: H, body: JSON.stringify({ type: 'function', function: { name: 'lookup', description: 'x'.repeat(500) } }) }).catch(
          () => undefined,
        );
        if (!res) return;
        if (res.status === 201) acked++;
      }
    });
    // The stream is under way once a write is acknowledged: the first body loads the request
    // schemas, which takes a while on a busy machine, and a kill before that tests nothing.
    await expect.poll(() => acked, { timeout: 20_000, interval: 20 }).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 400));
    const ackedBeforeKill = acked;
    await kill9(child);
    await Promise.all(writers);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(data.format).toBe('voice-emulator');
    expect(data.collections.tool.length).toBeGreaterThanOrEqual(ackedBeforeKill);
    // The next start takes over the killed emulator's lock and removes any temp file it left.
    const next = await startEmulator({ dataFile: file });
    expect(readdirSync(dir).filter((n) => n.includes('stream.json'))).toEqual(['stream.json', 'stream.json.lock']);
    await next.close();
    expect(readdirSync(dir).filter((n) => n.includes('stream.json'))).toEqual(['stream.json']);
  });

  it('refuses a corrupt file with an error naming it, and does not overwrite it', async () => {
    const file = join(dir, 'corrupt.json');
    writeFileSync(file, '{"format": "voice-emulator", "collections": {');
    const err = await startEmulator({ dataFile: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{"format": "voice-emulator", "collections": {');

    writeFileSync(file, '{"hello": "world"}');
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(/is not an emulator data file/);
    expect(readFileSync(file, 'utf8')).toBe('{"hello": "world"}');
  });

  it('writes the file at start and reloads seed data only once', async () => {
    const file = join(dir, 'seeded.json');
    const a = await startEmulator({ dataFile: file, seed: true });
    const count = async (url: string) => ((await (await fetch(`${url}/assistant`, { headers: H })).json()) as unknown[]).length;
    const seeded = await count(a.url);
    expect(seeded).toBeGreaterThan(0);
    await a.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).collections.assistant).toHaveLength(seeded);
    const b = await startEmulator({ dataFile: file, seed: true });
    expect(await count(b.url)).toBe(seeded);
    await b.close();
  });
});

describe('data file location', () => {
  it('says so clearly when the data file cannot be written', async () => {
    const file = join(dir, 'missing-folder', 'data.json');
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(new RegExp(`Data file ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be written`));
  });
});
