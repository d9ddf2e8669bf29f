// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain of the Ink
// script's code cache: about 125 M instructions a start; with the Unicode stand-ins 3.04x -> 2.10x.
// The Ink script: the CLI's table and key/value views (cli/ui/script.ts, with Ink, React and Yoga)
// bundled as one classic script, dist/cli/chunks/ink-script.js, plus a V8 code cache of it made at
// build time, ink-script-<hash>.cache. Node 20 has no compile cache for ES modules; a script run through
// vm.Script with cachedData skips parsing and compiling the 350 KB bundle (cli/launch/ink-load.ts).
// The file is `(function (module, exports, require) { <CommonJS bundle> })`, then a last line naming
// its cache, `//# voiceCache=ink-script-<hash of the script>.cache`: V8 checks a cache against its
// source's length only, so a script never meets a cache made from another build.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { makeCodeCache } from './build-code-cache.js';
import { lazyUnicode } from './build-lazy-unicode.js';

export const INK_SCRIPT = 'dist/cli/chunks/ink-script.js';

/**
 * Ink's changes for a classic script: `yoga-layout` awaits its WebAssembly at the top level, so its
 * imports get cli/ui/yoga.ts (the same object, filled by initYoga()); Ink's reconciler awaits the
 * React devtools and its package.json at the top level when DEV=true: devtools serve Ink's live
 * render(), not the renderToString() the CLI draws with, so that branch is left out.
 */
function classicScript(root) {
  return {
    name: 'ink-classic-script',
    setup(build) {
      build.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: resolve(root, 'cli/ui/yoga.ts') }));
      // Ink's frame is turned into text by cli/launch/styled-chars.ts (the same text, fewer objects).
      build.onResolve({ filter: /^@alcalzone\/ansi-tokenize$/ }, (args) =>
        /[\\/]node_modules[\\/]ink[\\/]build[\\/]output\.js$/.test(args.importer) ? { path: resolve(root, 'cli/launch/styled-chars.ts') } : undefined,
      );
      build.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        const out = text.replace('if (isDev()) {', 'if (false) {').replace('const packageJson = isDev()', 'const packageJson = false');
        if (out.split('isDev()').length !== text.split('isDev()').length - 2)
          throw new Error("ink-script: Ink's reconciler no longer matches cli/launch/build-ink-script.js (its top-level awaits moved)");
        return { contents: out, loader: 'js' };
      });
    },
  };
}

/** esbuild options of the Ink script. */
export function inkScriptBuild(root) {
  return {
    metafile: true,
    absWorkingDir: root,
    entryPoints: ['cli/ui/script.ts'],
    outfile: INK_SCRIPT,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    external: ['react-devtools-core'],
    conditions: ['voice-source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [classicScript(root), lazyUnicode(resolve(root, 'cli/launch/lazy-unicode.ts'))],
    banner: { js: '(function (module, exports, require) {' },
    footer: { js: '})' },
    logLevel: 'warning',
  };
}

// Run in a child process (a clean V8): compiles the script, draws the views a command draws (so
// the functions they run are compiled too), and writes the code cache.
const MAKE_CACHE = `
const { readFileSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');
const { createRequire } = require('node:module');
const [file, out] = process.argv.slice(1);
const script = new Script(readFileSync(file, 'utf8'), { filename: file });
const ui = { exports: {} };
script.runInThisContext()(ui, ui.exports, createRequire(file));
ui.exports.initYoga().then(() => {
  const rows = [['0b6d1a52-3c4e-4f7a-9d2b-1e8f5a6c7d90', 'Front desk', 'openai', '3 minutes ago'], ['1c7e2b63-4d5f-4a8b-8e3c-2f9a6b7d8e01', 'Sales', '', 'just now']];
  ui.exports.renderView({ kind: 'table', headers: ['ID', 'NAME', 'MODEL PROVIDER', 'CREATED'], rows, idColumn: 0 }, { width: 100 });
  ui.exports.renderView({ kind: 'object', entries: [['id', rows[0][0]], ['name', 'Front desk']] }, { width: 100 });
  writeFileSync(out, script.createCachedData());
});
`;

/**
 * Names the built script's cache in its last line and writes that cache. Returns the cache's path,
 * or an error text (the script then runs without a cache until one is made in the user's folder).
 */
export function makeInkCache(root) {
  const script = resolve(root, INK_SCRIPT);
  return makeCodeCache({ root, script, name: 'ink-script', maker: MAKE_CACHE, args: [script], env: { FORCE_COLOR: '3' } });
}
