// Helpers of scripts/packages.test.ts: what an install holds and weighs, what a source tree
// imports, what a server and npm print.
import { build } from 'esbuild';
import type { execa } from 'execa';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';

/** The package an import specifier names (`@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`). */
export const packageOf = (spec: string): string => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));

/** Bytes on disk under a folder (symlinks counted as links, never followed). */
export function size(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? size(path) : lstatSync(path).size;
  }
  return total;
}

/** Every package folder under node_modules (scoped ones as `@scope/name`), nested ones too. */
export function installed(dir: string): string[] {
  const names: string[] = [];
  const walk = (modules: string): void => {
    let entries: string[] = [];
    try {
      entries = readdirSync(modules);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith('.')) continue;
      const scoped = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`) : [entry];
      for (const name of scoped) {
        names.push(name);
        walk(join(modules, name, 'node_modules'));
      }
    }
  };
  walk(join(dir, 'node_modules'));
  return names;
}

/** The first http:// URL a server process prints on stdout. */
export function firstUrl(child: ReturnType<typeof execa>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += String(d);
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    void child.then((r) => reject(new Error(`exited ${String(r.exitCode)} before printing a URL: ${String(r.stderr)}`)));
  });
}

/** Lines of npm's output that warn (what a user installing would read). */
export const warnings = (run: { stdout: string; stderr: string }): string[] => `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /\bwarn/i.test(line));

/**
 * Each package the non-test TypeScript under `dir` imports (Node built-ins aside), with one file
 * (relative to `root`) that imports it. Test code (`*.test.ts`, the helpers tests share,
 * `*.test-support.ts`, a vitest.config.ts) is not what users run.
 */
export function packagesImported(dir: string, root: string): Map<string, string> {
  const used = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'dist' && entry.name !== 'node_modules') walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test(-support)?\.tsx?$/.test(entry.name) && entry.name !== 'vitest.config.ts') {
        for (const m of readFileSync(path, 'utf8').matchAll(/(?:(?<![\w'"])from\s*|\bimport\s*\(\s*)'([^'./][^']*)'/g)) {
          // (`from` as a word of code: a quoted 'from' in a generated list of field names is none)
          const spec = m[1] as string;
          if (!isBuiltin(spec)) used.set(packageOf(spec), path.slice(root.length));
        }
      }
    }
  };
  walk(dir);
  return used;
}

/**
 * The files of core/ the demo page (web/src/main.tsx) reaches: its faces (`voice-agent-core/<face>`,
 * by their `voice-source` files) and its `#core/` imports, followed as Vite follows them; other
 * packages stay imports.
 */
export async function coreFilesThePageReaches(root: string, outdir: string): Promise<string[]> {
  const page = await build({
    absWorkingDir: root,
    entryPoints: ['web/src/main.tsx'],
    bundle: true,
    write: false,
    metafile: true,
    splitting: true,
    format: 'esm',
    outdir,
    conditions: ['voice-source'],
    plugins: [{ name: 'other-packages-external', setup: (b) => b.onResolve({ filter: /^[^./#]/ }, (a) => (a.path.startsWith('voice-agent-core/') ? undefined : { path: a.path, external: true })) }],
    loader: { '.css': 'empty' },
    logLevel: 'error',
  });
  return Object.keys(page.metafile.inputs).filter((f) => f.startsWith('core/'));
}
