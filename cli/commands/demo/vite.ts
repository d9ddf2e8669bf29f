// Budget: `voice demo` to page served <= 0.95x plain Vite warm, <= 1.1x cold. Measured gain of the
// Vite script's code cache: loading Vite 96 -> 54 ms of a warm start.
// Re-measured 2026-11-26, two shared cores at load average 13 to 25 (cli/launch/README.md):
// loading Vite 78 to 90 ms of CPU from the script, 111 to 130 ms importing it (5 runs each,
// alternating); the demo-start rows were too noisy to tell (both missed 0.95x). Kept.
// Loads Vite and its React plugin for `voice demo`. In the built CLI they are also one classic
// script, chunks/vite-script.js, with a V8 code cache (cli/launch/build-vite-script.js, run by
// cli/launch/code-cache.ts): importing Vite's 1.4 MB of ES modules is about 100 ms of a warm start, most
// of it parsing and compiling. The script is used only when the installed vite and
// @vitejs/plugin-react are the versions it was built from; otherwise, when running from source, or
// on any failure, they are imported as usual.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Vite from 'vite';
import type ReactPlugin from '@vitejs/plugin-react';
import { runScript, scriptTag } from '../../launch/code-cache.js';

/** Vite and the React plugin. */
export interface ViteTools {
  vite: typeof Vite;
  react: typeof ReactPlugin;
  /** True when Vite came from the script with a code cache. */
  cached: boolean;
  /** Writes a code cache into the user's folder when the built one did not fit; call once the page has been served. */
  saveCache(): void;
}

/** The folder of an installed package, found from its entry (neither package exports package.json alike). */
function packageDir(name: string): string {
  for (let dir = dirname(fileURLToPath(import.meta.resolve(name))); ; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === name) return dir;
    } catch {
      // Not the package's own folder yet.
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the folder of ${name}`);
  }
}

/**
 * Runs the Vite script `file` when the installed packages are the versions named in it; rejects
 * otherwise (the caller then imports them). `cache: false` compiles it without a code cache.
 */
export async function runViteScript(file: string, options: { cache?: boolean } = {}) {
  const source = await readFile(file, 'utf8');
  const dirs = new Map<string, string>();
  for (const entry of (scriptTag(source, 'voiceVersions') ?? '').split(',')) {
    const at = entry.lastIndexOf('@');
    const name = entry.slice(0, at);
    const dir = packageDir(name);
    const installed = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    if (installed !== entry.slice(at + 1)) throw new Error(`the Vite script was built with ${entry}, ${name}@${installed} is installed`);
    dirs.set(name, dir);
  }
  const viteDir = dirs.get('vite');
  if (!viteDir || !dirs.has('@vitejs/plugin-react')) throw new Error('the Vite script names no versions');
  // A bundled file's own path, from its place under node_modules at build time ("vite/dist/...").
  const pathOf = (rel: string): string => {
    const scoped = rel.startsWith('@');
    const parts = rel.split('/');
    const name = parts.slice(0, scoped ? 2 : 1).join('/');
    return join(dirs.get(name) ?? join(viteDir, 'node_modules', name), ...parts.slice(scoped ? 2 : 1));
  };
  const requireFromVite = createRequire(join(viteDir, 'package.json'));
  const meta = (rel: string) => {
    const filename = pathOf(rel);
    const own = createRequire(filename);
    return { url: pathToFileURL(filename).href, filename, dirname: dirname(filename), resolve: (specifier: string) => resolveFrom(own, filename, specifier) };
  };
  // `import(x)` in the bundled files: a bare name resolves from the importing file's package.
  const dynamicImport = (rel: string, specifier: unknown) => {
    if (typeof specifier !== 'string') return import(specifier as string);
    const filename = pathOf(rel);
    return import(resolveFrom(createRequire(filename), filename, specifier));
  };
  const run = await runScript<{ vite: typeof Vite; react: typeof ReactPlugin }>(file, requireFromVite, [meta, dynamicImport], { ...options, source });
  return { script: run.script, tools: { ...run.exports, saveCache: run.save, cached: run.cached } };
}

/** What `import(specifier)` in the file `from` would load, as a URL. */
function resolveFrom(require: NodeRequire, from: string, specifier: string): string {
  if (/^(node:|data:|file:)/.test(specifier)) return specifier;
  if (specifier.startsWith('.') || specifier.startsWith('/')) return new URL(specifier, pathToFileURL(from)).href;
  try {
    return pathToFileURL(require.resolve(specifier)).href;
  } catch {
    // A built-in without its prefix, or a package that only offers `import`: let the loader say.
    return specifier;
  }
}

/** Vite and the React plugin: from the Vite script when built and current, else imported. */
export async function loadViteTools(): Promise<ViteTools> {
  try {
    return (await runViteScript(fileURLToPath(new URL('./vite-script.js', import.meta.url)))).tools;
  } catch {
    // Not built (running from source), other versions installed, or unreadable: import them.
  }
  const [vite, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
  return { vite, react, cached: false, saveCache: () => undefined };
}
