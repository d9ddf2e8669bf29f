#!/usr/bin/env node
// Builds what `bin/voice.js` and the package exports need: the bundled CLI (lazy chunks for
// Ink and the emulator), the browser-safe client and web-call libraries, and their types.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const define = { __VOICE_VERSION__: JSON.stringify(pkg.version) };
const started = Date.now();

// CommonJS dependencies bundled into ESM still call require() for Node built-ins.
const requireShim = "import { createRequire as __voiceRequire } from 'node:module'; const require = __voiceRequire(import.meta.url);";

// dist/ is overwritten in place, never deleted first, so a CLI process started during a rebuild
// (tests, a running `voice dev`) still finds its entry; outputs no longer produced are pruned after.
const results = await Promise.all([
  build({
    metafile: true,
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
    // Heavy tools the CLI only reaches for in rare commands stay as installed packages.
    external: ['vite', '@vitejs/plugin-react', '@sentry/node', '@supabase/supabase-js', 'lightningcss', 'fsevents', 'react-devtools-core'],
    banner: { js: requireShim },
    define: { ...define, 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  }),
  build({
    metafile: true,
    entryPoints: { client: 'core/client/index.ts', 'client-node': 'core/client/node.ts', webcall: 'core/webcall/index.ts', react: 'core/react/index.ts' },
    outdir: 'dist/lib',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    define,
    logLevel: 'warning',
  }),
]);

const produced = new Set(results.flatMap((r) => Object.keys(r.metafile.outputs).map((f) => resolve(f))));
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
prune('dist/cli');
prune('dist/lib');

const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
process.stderr.write(`built dist/ in ${Date.now() - started} ms\n`);
