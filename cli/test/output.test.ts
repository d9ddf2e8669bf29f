// What people and scripts see: exact JSON (pretty on a terminal, compact piped), plain rows when
// piped, an Ink table and key/value view on a terminal, colour rules, and Ink never loaded
// on the JSON and piped paths.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, captured, harness, json } from './harness.js';
import type { Harness } from './harness.js';
import { ROOT } from './build.js';
import { plain, voiceTty } from './tty.js';

let h: Harness;
let ids: string[];
beforeAll(async () => {
  h = await harness();
  ids = [];
  for (const name of ['Front desk', 'Sales line']) ids.push(json<{ id: string }>(await h.voice(['assistant', 'create', '--set', `name=${name}`, '--json'])).id);
  const call = await h.voice(['call', 'web', '--set', `assistantId=${ids[0]}`, '--json']);
  expect(call.exitCode, call.stderr).toBe(0);
});
afterAll(async () => {
  await h?.close();
  expect(captured.join('\n')).not.toContain(KEY);
});

describe('--json', () => {
  it('prints exactly the API JSON, compact when piped', async () => {
    const run = await h.voice(['assistant', 'list', '--json']);
    const direct = await (await fetch(`${h.emu.url}/assistant`, { headers: { authorization: `Bearer ${KEY}` } })).text();
    expect(run.stdout).toBe(`${direct}\n`);
    expect(run.stdout.trim()).not.toContain('\n');
  });

  it('is pretty on a terminal', async () => {
    const run = await voiceTty(h.env, ['assistant', 'get', ids[0] as string, '--json']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('\n  "name": "Front desk"');
    expect(JSON.parse(plain(run.stdout)).id).toBe(ids[0]);
  });

  it('follows every page with --all', async () => {
    for (let i = 0; i < 102; i++) {
      const res = await fetch(`${h.emu.url}/test-suite`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Suite ${i}` }),
      });
      expect(res.status).toBe(201);
    }
    const first = json<{ results: unknown[]; metadata: { totalPages: number } }>(await h.voice(['test-suite', 'list', '--json']));
    expect(first.results).toHaveLength(100);
    expect(first.metadata.totalPages).toBe(2);
    const all = json<{ name: string }[]>(await h.voice(['test-suite', 'list', '--all', '--json']));
    expect(new Set(all.map((s) => s.name)).size).toBe(102);
    const tty = await voiceTty(h.env, ['test-suite', 'list']);
    expect(plain(tty.stdout)).toContain('Page 1 of 2 (102 items). More: --page 2, or --all.');
  });

  it('caps --all with --limit', async () => {
    const run = await h.voice(['assistant', 'list', '--all', '--limit', '1', '--json']);
    expect(json<unknown[]>(run)).toHaveLength(1);
    const all = await h.voice(['assistant', 'list', '--all', '--json']);
    expect(
      json<{ id: string }[]>(all)
        .map((a) => a.id)
        .sort(),
    ).toEqual([...ids].sort());
  });
});

describe('piped output', () => {
  it('is tab-separated rows with no colour and no header', async () => {
    const run = await h.voice(['assistant', 'list']);
    const rows = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r[0]).sort()).toEqual([...ids].sort());
    expect(rows.map((r) => r[1]).sort()).toEqual(['Front desk', 'Sales line']);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stderr).toBe('');
  });

  it('shows one object as key<TAB>value lines', async () => {
    const run = await h.voice(['assistant', 'get', ids[0] as string]);
    expect(run.stdout).toMatch(new RegExp(`^id\\t${ids[0]}$`, 'm'));
    expect(run.stdout).toMatch(/^name\tFront desk$/m);
  });
});

describe('terminal output', () => {
  it('says so when a list is empty', async () => {
    const run = await voiceTty(h.env, ['squad', 'list']);
    expect(run.exitCode).toBe(0);
    expect(plain(run.stdout)).toContain('No squad found.');
    expect((await h.voice(['squad', 'list'])).stdout).toBe('');
  });

  it('draws a table with per-resource columns', async () => {
    const run = await voiceTty(h.env, ['call', 'list']);
    expect(run.exitCode).toBe(0);
    const text = plain(run.stdout);
    expect(text).toMatch(/ID\s+TYPE\s+STATUS\s+.*CREATED/);
    expect(text).toContain('webCall');
    expect(run.stdout).toContain('\u001b[');
  });

  it('draws a key/value view and fits the width', async () => {
    // 40 characters is the longest name the platform takes.
    const long = 'x'.repeat(40);
    const id = json<{ id: string }>(await h.voice(['assistant', 'create', '--set', `name=${long}`, '--json'])).id;
    const run = await voiceTty(h.env, ['assistant', 'get', id], { columns: 36 });
    const lines = plain(run.stdout).split('\n');
    expect(lines.find((l) => l.startsWith('name'))).toMatch(/x…$/);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(36);
    await h.voice(['assistant', 'delete', id, '--yes']);
  });

  it('has no colour with NO_COLOR, TERM=dumb or --no-color', async () => {
    for (const [env, args] of [
      [{ NO_COLOR: '1' }, []],
      [{ TERM: 'dumb' }, []],
      [{}, ['--no-color']],
    ] as const) {
      const run = await voiceTty({ ...h.env, ...env }, ['assistant', 'list', ...args]);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain('Front desk');
      expect(plain(run.stdout)).toBe(run.stdout);
    }
  });
});

describe('lazy loading', () => {
  const chunks = join(ROOT, 'dist', 'cli', 'chunks');
  const inkChunk = (): string => {
    // esbuild names the chunk of the lazily imported cli/ui/render.tsx after it.
    const name = readdirSync(chunks).find((f) => f.startsWith('render-') && readFileSync(join(chunks, f), 'utf8').includes('yoga'));
    if (!name) throw new Error('no chunk contains Ink');
    return name;
  };
  // The chunk of cli/launch/ink-load.ts, which runs Ink from the classic script chunks/ink-script.js.
  const loaderChunk = (): string => {
    const name = readdirSync(chunks).find((f) => f.startsWith('ink-load-') && readFileSync(join(chunks, f), 'utf8').includes('ink-script.js'));
    if (!name) throw new Error('no chunk loads the Ink script');
    return name;
  };

  it('keeps Ink out of the static import graph of main.js', () => {
    const seen = new Set<string>();
    const walk = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:import|export)\s*\{[^}]*\}\s*from\s*"(\.[^"]+)"|import\s*"(\.[^"]+)"/g)) {
        walk(join(file, '..', (m[1] ?? m[2]) as string));
      }
    };
    walk(join(ROOT, 'dist', 'cli', 'main.js'));
    expect([...seen].map((f) => f.split('/').pop())).not.toContain(inkChunk());
    expect([...seen].map((f) => f.split('/').pop())).not.toContain(loaderChunk());
    expect(seen.size).toBeGreaterThan(1);
  });

  async function traced(args: string[], tty: boolean): Promise<string> {
    const file = join(h.home, `trace-${Math.random().toString(36).slice(2)}.txt`);
    const env = { ...h.env, VOICE_TRACE_FILE: file, NODE_OPTIONS: `--import=${join(ROOT, 'cli', 'test', 'fixtures', 'trace-modules.mjs')}` };
    if (tty) await voiceTty(env, args);
    else captured.push(String((await execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), ...args], { env, extendEnv: false, reject: false })).stdout));
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  it('loads Ink only for a terminal', async () => {
    const [ink, loader] = [inkChunk(), loaderChunk()];
    const jsonRun = await traced(['assistant', 'list', '--json'], false);
    // The trace saw the CLI run (a plain read runs in the fast lane, anything else in main.js).
    expect(jsonRun).toMatch(/dist\/cli\/(main\.js|fast-read\.cjs)/);
    expect(jsonRun).not.toContain(ink);
    expect(jsonRun).not.toContain(loader);
    expect(jsonRun).not.toMatch(/node_modules\/(ink|react)\//);
    for (const run of [await traced(['assistant', 'list'], false), await traced(['assistant', 'list', '--json'], true)]) {
      expect(run).not.toContain(ink);
      expect(run).not.toContain(loader);
    }
    // On a terminal the table comes from the Ink script (run from its code cache), not the ES module
    // chunk: through the fast lane's loader (a plain list), or the full CLI's for anything else.
    const table = await traced(['assistant', 'list'], true);
    expect(table).toContain('dist/cli/fast-read.cjs');
    expect(table).not.toContain(ink);
    expect(table).not.toMatch(/node_modules\/(ink|react)\//);
    const full = await traced(['assistant', 'list', '--limit', '5'], true);
    expect(full).toContain(loader);
    expect(full).not.toContain(ink);
  });
});
