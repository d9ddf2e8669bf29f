// The Ink script of the built CLI (dist/cli/chunks/ink-script.js, its code cache beside it) against
// the ES module views it is built from: same text, cache used, cache remade when rejected.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../test/build.js';
import { cacheFolder } from './code-cache.js';
import { loadScript } from './ink-load.js';
import { renderView } from '../ui/render.js';
import type { TtyView } from '../ui/render.js';

const SCRIPT = join(ROOT, 'dist', 'cli', 'chunks', 'ink-script.js');
const ESC = String.fromCharCode(27);

const views: TtyView[] = [
  {
    kind: 'table',
    headers: ['ID', 'NAME', 'MODEL PROVIDER', 'CREATED'],
    rows: [
      ['0b6d1a52-3c4e-4f7a-9d2b-1e8f5a6c7d90', 'Front desk', 'openai', '3 minutes ago'],
      ['1c7e', 'Réception 日本語 👩‍💻 café', '', 'just now'],
    ],
    idColumn: 0,
  },
  { kind: 'table', headers: ['ID', 'NAME'], rows: [], idColumn: 0 },
  { kind: 'table', headers: ['ID', 'NAME'], rows: [[`a${ESC}[31m1`, 'line\r\nbreak']], idColumn: 1 },
  {
    kind: 'object',
    entries: [
      ['id', 'a1'],
      ['name', 'x'.repeat(80)],
      ['note', '絵文字 🇫🇷'],
    ],
  },
];

describe('the Ink script', () => {
  let dir: string;
  const saved = process.env.XDG_CACHE_HOME;
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'voice-ink-'));
    process.env.XDG_CACHE_HOME = join(dir, 'cache');
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws what the ES module views draw, from the code cache made at build time', async () => {
    const ui = await loadScript(SCRIPT);
    expect(ui.cached).toBe(true);
    for (const view of views) for (const width of [100, 30, 12]) expect(ui.renderView(view, { width })).toBe(renderView(view, { width }));
    expect(existsSync(cacheFolder())).toBe(false);
  });

  it('makes its own cache in the cache folder when the built one does not fit, and uses it next time', async () => {
    const file = join(dir, 'ink-script.js');
    copyFileSync(SCRIPT, file);
    const name = /voiceCache=(\S+)\s*$/.exec(readFileSync(SCRIPT, 'utf8'))?.[1] as string;
    expect(existsSync(join(SCRIPT, '..', name))).toBe(true);
    writeFileSync(join(dir, name), 'not a V8 code cache');
    const first = await loadScript(file);
    expect(first.cached).toBe(false);
    const view = views[0] as TtyView;
    expect(first.renderView(view, { width: 80 })).toBe(renderView(view, { width: 80 }));
    expect(readdirSync(cacheFolder())).toEqual([expect.stringMatching(new RegExp(`^ink-script-${process.version}-${process.arch}-[0-9a-f]{16}\\.cache$`))]);
    rmSync(join(dir, name));
    const second = await loadScript(file);
    expect(second.cached).toBe(true);
    expect(second.renderView(view, { width: 80 })).toBe(renderView(view, { width: 80 }));
  });

  it('fails (so the ES module is used) when the script is missing', async () => {
    await expect(loadScript(join(dir, 'missing.js'))).rejects.toThrow();
  });
});
