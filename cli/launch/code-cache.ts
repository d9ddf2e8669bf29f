// Budget: the Ink table on a terminal <= 2.5x `node -e 0`, and `voice demo` <= 0.95x plain Vite warm.
// Measured gain: the Ink script's cache about 125 M instructions a start; the Vite script's, 96 -> 54 ms.
// Re-measured 2026-11-26, two shared cores at load average 13 to 25 (cli/launch/README.md):
// Ink table 990 M, 985 M instructions (1.95x) with the cache, 1,126 M, 1,130 M (2.23x) without;
// loading Vite 78 to 90 ms of CPU with the Vite script's cache, 111 to 130 ms importing Vite. Kept.
// Classic scripts with a V8 code cache: Node 20 caches no ES module code, so the CLI's two heavy
// loads (the Ink views, cli/launch/build-ink-script.js; Vite, cli/launch/build-vite-script.js) are also built as one
// classic script each, `(function (module, exports, require, ...more) { <CommonJS bundle> })`,
// whose last line names a code cache made at build time beside it:
// `//# voiceCache=<name>-<hash of the script>.cache` (V8 checks a cache against its source's length
// only, so a script never meets a cache made from another build). Run through vm.Script with that
// cache, the script is neither parsed nor compiled again. When the cache does not fit this Node
// (another version or V8 flags), `save()` writes one into the user's cache folder, used from then on.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The user's cache folder for code caches made by this Node: `$XDG_CACHE_HOME/voice`, else `~/.cache/voice`. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME?.trim() ? env.XDG_CACHE_HOME : join(homedir(), '.cache'), 'voice');
}

/** A script that ran. */
export interface CachedScript<T> {
  exports: T;
  /** True when a code cache was used. */
  cached: boolean;
  /**
   * Writes a code cache into the user's folder when none fitted (best effort); call it once the
   * functions a typical run needs have run, so the cache holds them too.
   */
  save(): void;
  /** The compiled script (to make a cache of it elsewhere). */
  script: Script;
}

/** The last lines of a script that name things (`//# voiceX=value`). */
export function scriptTag(source: string, tag: string): string | undefined {
  return new RegExp(`//# ${tag}=(\\S+)\\s`).exec(source.slice(-300))?.[1];
}

function compile(source: string, filename: string, cachedData: Buffer | undefined): { script: Script; cached: boolean } {
  const script = new Script(source, { filename, ...(cachedData ? { cachedData } : {}) });
  return { script, cached: cachedData !== undefined && !script.cachedDataRejected };
}

/**
 * Runs the classic script `file` with `require` and `args` as the wrapper's parameters after
 * `module` and `exports`. `cache: false` compiles it without any cache (to make one); `source` is
 * the file's text when the caller has read it already. Rejects when the script is missing or fails.
 */
export async function runScript<T>(file: string, require: NodeRequire, args: unknown[] = [], options: { cache?: boolean; source?: string } = {}): Promise<CachedScript<T>> {
  const source = options.source ?? (await readFile(file, 'utf8'));
  const name = options.cache === false ? undefined : scriptTag(source, 'voiceCache');
  const built = name ? await readFile(join(dirname(file), name)).catch(() => undefined) : undefined;
  let { script, cached } = compile(source, file, built);
  let save: string | undefined;
  if (!cached && options.cache !== false) {
    // The key names this Node and this script.
    const { createHash } = await import('node:crypto');
    const key = createHash('sha256').update(source).digest('hex').slice(0, 16);
    const base = name?.replace(/-[0-9a-f]+\.cache$/, '') ?? 'script';
    save = join(cacheFolder(), `${base}-${process.version}-${process.arch}-${key}.cache`);
    let mine: Buffer | undefined;
    try {
      mine = readFileSync(save);
    } catch {
      mine = undefined;
    }
    if (mine) ({ script, cached } = compile(source, file, mine));
    if (cached) save = undefined;
  }
  const module = { exports: {} as T };
  (script.runInThisContext() as (...params: unknown[]) => void)(module, module.exports, require, ...args);
  return {
    exports: module.exports,
    cached,
    script,
    save() {
      if (save) writeCache(save, script);
      save = undefined;
    },
  };
}

/** Writes a code cache; best effort. */
function writeCache(file: string, script: Script): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file);
  } catch {
    // A read-only or full disk only means no cache next time.
  }
}
