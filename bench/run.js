#!/usr/bin/env node
// `npm run bench` entry: bundles the TypeScript benchmarks (bench/main.ts and the emulator child
// entry) with esbuild into node_modules/.cache/voice-bench, then runs them. Installed packages stay
// external, so every benchmark measures the same node_modules the product ships with.
import { build } from 'esbuild';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { emulatorBuild } from '../scripts/build-config.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'node_modules', '.cache', 'voice-bench', 'build');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const corePkg = JSON.parse(readFileSync(join(root, 'core', 'package.json'), 'utf8'));
// Installed packages stay external, as in the product; core's own helpers (ajv, yaml, ...) are
// bundled in, as scripts/build.js bundles them into core/dist (loaded unbundled, their CommonJS
// default exports do not reach the emulator's schema checker, which then fails every request).
const external = [...new Set([pkg, corePkg].flatMap((p) => [...Object.keys(p.dependencies ?? {}), ...Object.keys(p.devDependencies ?? {}), ...Object.keys(p.peerDependencies ?? {})]))].filter(
  (name) => !Object.keys(corePkg.devDependencies ?? {}).includes(name) || Object.keys(pkg.dependencies ?? {}).includes(name) || Object.keys(pkg.devDependencies ?? {}).includes(name),
);
const requireShim = "import { createRequire as __voiceRequire } from 'node:module'; const require = __voiceRequire(import.meta.url);";

// A source file another part of the project has not written yet becomes a module that throws
// when loaded, so the other benchmarks still run and the missing one reports why it cannot.
const missingSources = {
  name: 'missing-sources',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      // Only the project's own sources: bundled packages resolve as esbuild always does.
      if (args.resolveDir.split(/[\\/]/).includes('node_modules')) return undefined;
      const target = resolve(args.resolveDir, args.path);
      const base = target.replace(/\.js$/, '');
      const candidates = [target, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
      if (candidates.some((file) => existsSync(file))) return undefined;
      return { path: target, namespace: 'missing' };
    });
    b.onLoad({ filter: /.*/, namespace: 'missing' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path.replace(`${root}/`, '')} does not exist yet`)}); module.exports = {};`,
      loader: 'js',
    }));
  },
};

// What the last bundling read (esbuild's metafile inputs) and the files that shape it besides its
// inputs (this script, the shared build options, the manifests, the installed packages): when none
// is newer than the last bundle, it is reused. `npm test` runs a benchmark per test, and bundling
// cost each launch seconds on a busy machine.
const stamp = join(outdir, 'inputs.json');
const shaping = ['bench/run.js', 'scripts/build-config.js', 'package.json', 'core/package.json', 'node_modules/.package-lock.json'];

/** True when the last bundle is there and no file it was made from changed since. */
function bundleIsFresh() {
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(stamp, 'utf8'));
  } catch {
    return false;
  }
  // A source that did not exist then may exist now.
  if (!Array.isArray(inputs) || inputs.some((file) => file.includes(':'))) return false;
  const made = statSync(stamp).mtimeMs;
  const mtime = (file) => {
    try {
      return statSync(join(root, file)).mtimeMs;
    } catch {
      return Infinity;
    }
  };
  return [...inputs, ...shaping].every((file) => mtime(file) <= made) && ['main.mjs', 'emulator-server.mjs', 'replay-server.mjs'].every((file) => existsSync(join(outdir, file)));
}

try {
  if (!bundleIsFresh()) await bundle();
} catch {
  process.stderr.write('bench: could not bundle the benchmarks (see the errors above)\n');
  process.exit(2);
}

/** Bundles the benchmarks into `outdir` and records what the bundles read. */
async function bundle() {
  // The emulator child is bundled the way core ships its emulator (scripts/build-config.js): its
  // helper libraries (ajv, ...) bundled in from core's own node_modules. Left as installed imports,
  // they would resolve from this cache folder to the root's packages, where eslint's older ajv sits.
  const corePkg = JSON.parse(readFileSync(join(root, 'core', 'package.json'), 'utf8'));
  const children = await build({
    ...emulatorBuild(root, corePkg),
    metafile: true,
    entryPoints: { 'emulator-server': 'bench/emulator-server.ts', 'replay-server': 'bench/replay-server.ts' },
    // core's sources (its voice-source entry points), not core/dist, which carries a require shim of its own.
    conditions: ['voice-source'],
    outdir,
    outExtension: { '.js': '.mjs' },
    sourcemap: 'inline',
    plugins: [missingSources],
    logLevel: 'error',
  });
  const benches = await build({
    metafile: true,
    absWorkingDir: root,
    entryPoints: { main: 'bench/main.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    conditions: ['voice-source'],
    banner: { js: requireShim },
    sourcemap: 'inline',
    chunkNames: 'chunks/[name]-[hash]',
    define: { __VOICE_VERSION__: JSON.stringify(pkg.version) },
    plugins: [missingSources],
    logLevel: 'error',
  });
  const inputs = new Set([children, benches].flatMap((result) => Object.keys(result.metafile.inputs)));
  writeFileSync(stamp, `${JSON.stringify([...inputs])}\n`);
}

/**
 * Rebuilds dist/ when it is missing or older than the sources, with the same helper (and lock)
 * the test suite uses, so the CLI benchmarks never time a stale build. That helper finds the
 * repository from its own location, which bundling moves; `import.meta.url` is pinned to it.
 */
async function ensureBuilt() {
  const source = join(root, 'cli', 'test', 'build.ts');
  if (!existsSync(source)) return;
  const outfile = join(outdir, 'ensure-built.mjs');
  await build({
    entryPoints: [source],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(source).href) },
    logLevel: 'error',
  });
  const { ensureBuilt: run } = await import(pathToFileURL(outfile).href);
  run();
}

process.env.VOICE_BENCH_EMULATOR_ENTRY = join(outdir, 'emulator-server.mjs');
process.env.VOICE_BENCH_REPLAY_ENTRY = join(outdir, 'replay-server.mjs');
process.env.VOICE_BENCH_MAIN = join(outdir, 'main.mjs');
const { main } = await import(pathToFileURL(join(outdir, 'main.mjs')).href);
process.exit(await main(process.argv.slice(2), root, { ensureBuilt }));
