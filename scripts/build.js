#!/usr/bin/env node
// Builds the packages. core/dist: the browser-safe client and web-call libraries, the Node
// emulator (its third-party helpers bundled in, so core's only runtime dependency stays undici),
// source maps and type declarations. dist/: the bundled CLI (lazy chunks for Ink, the emulator and
// the demo) and the `voice dev` inspector page (dist/inspector, with Vite). The CLI bundles core from its sources; the root
// package does not depend on voice-agent-core, so an installed CLI holds core's code once.
// audio/dist: voice-agent-audio, the optional speech package. `--core` builds core/dist only (core's
// own `prepack`), `--audio` audio/dist only (audio's); `--if-stale` builds only when an output is
// missing or older than a source (what `npm start` runs).
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emulatorBuild, requireShim } from './build-config.js';
import { buildIsFresh } from './build-fresh.js';
import { lazyUnicode } from '../cli/launch/build-lazy-unicode.js';
import { inkScriptBuild, makeInkCache } from '../cli/launch/build-ink-script.js';
import { fastLaneBuild } from '../cli/launch/build-lane.js';
import { makeViteCache, viteScriptBuild } from '../cli/launch/build-vite-script.js';
import { copySchemaFiles } from '../cli/launch/build-schema-files.js';
import { asProduction } from '../web/vite/production.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => join(ROOT, ...parts);
const readJson = (file) => JSON.parse(readFileSync(at(file), 'utf8'));
const pkg = readJson('package.json');
const corePkg = readJson('core/package.json');
const coreOnly = process.argv.includes('--core');
const audioOnly = process.argv.includes('--audio');
if (process.argv.includes('--if-stale') && buildIsFresh(ROOT)) process.exit(0);
const started = Date.now();

/** core's library entries (name -> source), one per `exports` subpath of core/package.json. */
// react stays external (packages: 'external') and is an optional peer dependency of core.
const CORE_LIBRARY = { client: 'core/client/index.ts', 'client-node': 'core/client/node.ts', webcall: 'core/webcall/index.ts', react: 'core/react/index.ts', verify: 'core/verify/index.ts' };

const coreBuilds = [
  build({
    metafile: true,
    absWorkingDir: ROOT,
    entryPoints: CORE_LIBRARY,
    outdir: 'core/dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    sourcemap: true,
    chunkNames: 'chunks/[name]-[hash]',
    define: { __VOICE_VERSION__: JSON.stringify(corePkg.version) },
    logLevel: 'warning',
  }),
  build(emulatorBuild(ROOT, corePkg)),
];

// voice-agent-audio (audio/dist): one ES module for Node, loaded by the emulator with import() only
// when installed; its synthesizer (an installed package) and model file (audio/models) stay files.
const audioBuild = () =>
  build({
    metafile: true,
    absWorkingDir: ROOT,
    entryPoints: { index: 'audio/src/index.ts', 'synthesis-worker': 'audio/src/synthesis-worker.ts' },
    outdir: 'audio/dist',
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });

/** Type declarations of a package, with the repository's TypeScript; exits on a type error. */
async function declarations(project) {
  const tsc = spawn(process.execPath, [at('node_modules/typescript/bin/tsc'), '-p', at(project)], { stdio: 'inherit', cwd: ROOT });
  const [status] = await once(tsc, 'exit');
  if (status !== 0) process.exit(status ?? 1);
}

if (audioOnly) {
  await audioBuild();
  rmSync(at('audio/dist/types'), { recursive: true, force: true });
  await declarations('audio/tsconfig.build.json');
  process.stderr.write(`built audio/dist in ${Date.now() - started} ms\n`);
  process.exit(0);
}

// Heavy tools the CLI only reaches for in rare commands stay as installed packages.
/** The export condition under which core's package.json names its sources. */
const CORE_SOURCE = ['voice-source'];

// voice-agent-audio is optional: bundled in, `voice dev` could not run without it (and would carry its code twice).
const CLI_EXTERNAL = ['voice-agent-audio', 'vite', '@vitejs/plugin-react', '@sentry/node', '@supabase/supabase-js', 'lightningcss', 'fsevents', 'react-devtools-core'];

const cliBuilds = coreOnly
  ? []
  : [
      build({
        metafile: true,
        absWorkingDir: ROOT,
        entryPoints: { main: 'cli/main.ts' },
        outdir: 'dist/cli',
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        minify: true,
        legalComments: 'none',
        chunkNames: 'chunks/[name]-[hash]',
        external: CLI_EXTERNAL,
        // core is bundled from its sources (the entry points its package.json names for this condition).
        conditions: CORE_SOURCE,
        banner: { js: requireShim },
        define: { __VOICE_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
        // Ink's text helpers build their Unicode tables only when a table needs them.
        plugins: [lazyUnicode(at('cli/launch/lazy-unicode.ts'))],
        logLevel: 'warning',
      }),
      // The same views as one classic script with a V8 code cache (cli/launch/ink-load.ts).
      build(inkScriptBuild(ROOT)),
      // Vite and its React plugin as one classic script with a V8 code cache (cli/commands/demo/vite.ts).
      build(viteScriptBuild(ROOT)),
      // `voice --version` and plain reads, tried first by bin/voice.js (cli/launch/build-lane.js).
      build(fastLaneBuild(ROOT, { external: CLI_EXTERNAL, conditions: CORE_SOURCE, define: { __VOICE_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' } })),
    ];

// The `voice dev` inspector: a second React app, built to static files the emulator serves
// (dist/inspector). Vite is needed here only, never when `voice dev` runs.
async function buildInspector() {
  const { build: viteBuild } = await import('vite');
  await asProduction(() => viteBuild({ configFile: at('web/inspector/vite.config.ts'), logLevel: 'warn' }));
}

// Outputs are overwritten in place, never deleted first, so a CLI process started during a
// rebuild (tests, a running `voice dev`) still finds its entry; outputs no longer produced are
// pruned after.
const results = await Promise.all([...coreBuilds, ...cliBuilds, ...(coreOnly ? [] : [audioBuild()])]);
if (!coreOnly) await buildInspector();
const produced = new Set(results.flatMap((r) => Object.keys(r.metafile.outputs).map((f) => resolve(ROOT, f))));
if (!coreOnly) {
  for (const { cache, error } of [makeInkCache(ROOT), await makeViteCache(ROOT)]) {
    if (error) process.stderr.write(`${error}\n`);
    else produced.add(cache);
  }
  // The schema files plan and apply read as bytes (core/schemas/data.ts).
  for (const file of copySchemaFiles(ROOT)) produced.add(resolve(file));
}
function prune(dir) {
  let entries = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = resolve(join(dir, entry.name));
    if (entry.isDirectory()) prune(path);
    else if (!produced.has(path)) rmSync(path, { force: true });
  }
}
prune(at('core/dist'));
if (!coreOnly) {
  prune(at('dist/cli'));
  // The root package no longer re-exports core (dist/lib): core is its own package, installed once.
  rmSync(at('dist/lib'), { recursive: true, force: true });
  // Before core had a package of its own, its declarations were written here.
  rmSync(at('dist/types'), { recursive: true, force: true });
}
rmSync(at('core/dist/types'), { recursive: true, force: true });
if (!coreOnly) rmSync(at('audio/dist/types'), { recursive: true, force: true });
// The two packages' declarations are independent: written side by side.
await Promise.all([declarations('tsconfig.build.json'), ...(coreOnly ? [] : [declarations('audio/tsconfig.build.json')])]);
process.stderr.write(`built ${coreOnly ? 'core/dist' : 'core/dist, audio/dist and dist'} in ${Date.now() - started} ms\n`);
