// Loads the Ink views (cli/ui/render.tsx). In the built CLI they are also a classic script,
// chunks/ink-script.js, with a V8 code cache made at build time (scripts/ink-script.js): run through
// vm.Script with that cache, the 350 KB of Ink, React and Yoga are neither parsed nor compiled again
// (Node 20 caches no ES module code). When the cache does not fit this Node (another version or
// V8 flags), one is made after the first render in the user's cache folder and used from then on.
// Any failure falls back to the ES module chunk, as when running from source.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import type * as Render from './render.js';
import type * as YogaModule from './yoga.js';

/** What the views module offers. */
export type Ui = Pick<typeof Render, 'renderView'>;

type InkScript = Ui & Pick<typeof YogaModule, 'initYoga'>;

/** The user's cache folder for code caches made by this Node: `$XDG_CACHE_HOME/voice`, else `~/.cache/voice`. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME?.trim() ? env.XDG_CACHE_HOME : join(homedir(), '.cache'), 'voice');
}

function compile(source: string, filename: string, cachedData: Buffer | undefined): { script: Script; cached: boolean } {
  const script = new Script(source, { filename, ...(cachedData ? { cachedData } : {}) });
  return { script, cached: cachedData !== undefined && !script.cachedDataRejected };
}

/**
 * Runs the Ink script `file` (its last line names its code cache, beside it); `cached` says whether
 * a code cache was used. Rejects when the script is missing or fails.
 */
export async function loadScript(file: string): Promise<Ui & { cached: boolean }> {
  const source = await readFile(file, 'utf8');
  const name = /\/\/# voiceCache=(ink-script-[0-9a-f]+\.cache)\s*$/.exec(source.slice(-100))?.[1];
  const built = name ? await readFile(join(dirname(file), name)).catch(() => undefined) : undefined;
  let { script, cached } = compile(source, file, built);
  let save: string | undefined;
  if (!cached) {
    // The key names this Node and this script: V8 checks a cache against its source's length only.
    const { createHash } = await import('node:crypto');
    const key = createHash('sha256').update(source).digest('hex').slice(0, 16);
    save = join(cacheFolder(), `ink-script-${process.version}-${process.arch}-${key}.cache`);
    let mine: Buffer | undefined;
    try {
      mine = readFileSync(save);
    } catch {
      mine = undefined;
    }
    if (mine) ({ script, cached } = compile(source, file, mine));
    if (cached) save = undefined;
  }
  const module = { exports: {} as InkScript };
  (script.runInThisContext() as (m: typeof module, e: InkScript, r: NodeRequire) => void)(module, module.exports, createRequire(file));
  const ink = module.exports;
  await ink.initYoga();
  return {
    cached,
    renderView(view, opts) {
      const text = ink.renderView(view, opts);
      if (save) writeCache(save, script);
      save = undefined;
      return text;
    },
  };
}

/** Writes a code cache (after a render, so it holds the functions drawing needed); best effort. */
function writeCache(file: string, script: Script): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    const temp = `${file}.${process.pid}`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file);
  } catch {
    // A read-only or full disk only means no cache next time.
  }
}

/** The views: from the Ink script when built, else from the ES module. */
export async function loadInk(): Promise<Ui> {
  try {
    return await loadScript(fileURLToPath(new URL('./ink-script.js', import.meta.url)));
  } catch {
    // Not built (running from source), or unreadable: the ES module below draws the same.
  }
  // yoga-layout (inside Ink) fetches its inlined WebAssembly through fetch() when fetch exists,
  // which drags in Node's whole fetch stack (~20 ms); without it, it decodes the bytes directly.
  const g = globalThis as { fetch?: typeof fetch };
  const saved = g.fetch;
  g.fetch = undefined;
  try {
    return await import('./render.js');
  } finally {
    g.fetch = saved;
  }
}
