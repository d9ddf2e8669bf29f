// Budget: `voice demo` to page served <= 0.95x plain Vite warm, <= 1.1x cold. Measured gain of the
// Vite script's code cache: loading Vite 96 -> 54 ms of a warm start.
// The Vite script: Vite and its React plugin (the two packages `voice demo` loads, about 100 ms of
// a warm start) bundled as one classic script, dist/cli/chunks/vite-script.js, plus a V8 code cache
// made at build time by starting a dev server on the demo page. Node 20 caches no ES module code;
// run through vm.Script with that cache (cli/launch/code-cache.ts), Vite is neither parsed nor compiled
// again. cli/commands/demo/vite.ts uses it only when the installed vite and @vitejs/plugin-react
// are the versions it was built from, else imports them as usual.
//
// What changes for a classic script, file by file (the files stay as they are in node_modules):
// - `import.meta.*`, `__dirname` and `__filename` become the original file's own values
//   (`__voiceMeta("vite/dist/node/chunks/node.js")`), so Vite finds its client files where it is installed;
// - `import(x)` becomes `__voiceImport(x, file)`: an ES module import done by the loader, with a bare
//   name resolved from the importing package (a vm.Script cannot import with a code cache in Node 20);
// - packages with native code or optional ones (rolldown, lightningcss, esbuild, ...) stay installed
//   packages, required from Vite's own folder.
// The file is `(function (module, exports, require, __voiceMeta, __voiceImport) { <bundle> })`, then
// `//# voiceVersions=vite@X,@vitejs/plugin-react@Y` and `//# voiceCache=vite-script-<hash>.cache`.
import { appendFileSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, transform } from 'esbuild';
import { makeCodeCache } from './build-code-cache.js';

export const VITE_SCRIPT = 'dist/cli/chunks/vite-script.js';

/** The two packages bundled; their versions are checked before the script runs. */
export const VITE_PACKAGES = ['vite', '@vitejs/plugin-react'];

// Installed packages the script requires instead of bundling: native code (rolldown's parser and
// bundler, lightningcss, esbuild, fsevents) and what Vite loads only on demand if installed.
const EXTERNAL =
  /^(rolldown|@rolldown\/binding-.*|lightningcss|esbuild|fsevents|@vitejs\/devtools|jiti|tsx|oxc-transform-react|sass|sass-embedded|less|stylus|sugarss|terser|@babel\/.*|babel-plugin-react-compiler)(\/.*)?$/;

const ENTRY = `export * as vite from 'vite';\nexport { default as react } from '@vitejs/plugin-react';\n`;

/** True for `import("./file.js")` or `import("package")` that esbuild bundles (neither built in nor external). */
function bundled(source) {
  if (source?.type !== 'Literal' || typeof source.value !== 'string') return false;
  const name = source.value;
  return !name.startsWith('node:') && !isBuiltin(name) && !EXTERNAL.test(name);
}

/** The `import(` keywords of a module's code (not of its strings or comments) that stay dynamic imports, by parsing it. */
async function importKeywords(code, file) {
  const { parseSync } = await import('rolldown/utils');
  const { program, errors } = parseSync(file, code, { sourceType: 'module' });
  if (errors.length) throw new Error(`vite-script: cannot parse ${file}: ${errors[0].message}`);
  const starts = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    // A literal of the bundle's own files is left to esbuild, which bundles it.
    if (node.type === 'ImportExpression' && !bundled(node.source)) starts.push(node.start);
    for (const key in node) if (key !== 'type' && node[key] && typeof node[key] === 'object') visit(node[key]);
  };
  visit(program);
  for (const at of starts) if (code.slice(at, at + 6) !== 'import') throw new Error(`vite-script: ${file}: no import( at offset ${at}`);
  return starts;
}

function classicScript(nodeModules) {
  let count = 0;
  return {
    name: 'vite-classic-script',
    setup(build) {
      build.onResolve({ filter: EXTERNAL }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /\.(m?js|cjs)$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!/import\.meta|import\(|__dirname|__filename/.test(text)) return undefined;
        const rel = relative(nodeModules, args.path).split(sep).join('/');
        if (rel.startsWith('..')) throw new Error(`vite-script: ${args.path} is outside node_modules`);
        const id = `__voice_meta_${count++}`;
        // esbuild's define replaces expressions only, never the same words in strings (Vite writes code).
        const esm = /\.mjs$/.test(args.path) || /^\s*(import|export)\s/m.test(text);
        const defined = (
          await transform(text, {
            loader: 'js',
            format: esm ? 'esm' : undefined,
            define: {
              'import.meta.url': `${id}.url`,
              'import.meta.resolve': `${id}.resolve`,
              'import.meta.dirname': `${id}.dirname`,
              'import.meta.filename': `${id}.filename`,
              __dirname: `${id}.dirname`,
              __filename: `${id}.filename`,
            },
            logLevel: 'error',
          })
        ).code;
        let code = defined;
        const starts = await importKeywords(code, args.path);
        for (const at of starts.sort((a, b) => b - a)) code = `${code.slice(0, at)}__voiceImport.bind(null, ${JSON.stringify(rel)})${code.slice(at + 6)}`;
        return { contents: `var ${id} = __voiceMeta(${JSON.stringify(rel)});\n${code}`, loader: 'js' };
      });
    },
  };
}

/** esbuild options of the Vite script. */
export function viteScriptBuild(root) {
  return {
    metafile: true,
    absWorkingDir: root,
    stdin: { contents: ENTRY, resolveDir: root, sourcefile: 'vite-script-entry.js', loader: 'js' },
    outfile: VITE_SCRIPT,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Vite's own `#module-sync-enabled` import: require(esm) is on in every Node this package supports.
    conditions: ['module-sync'],
    legalComments: 'none',
    // Names are kept (keepNames), as Vite's messages and plugin order may show them.
    minify: true,
    keepNames: true,
    plugins: [classicScript(resolve(root, 'node_modules'))],
    banner: { js: '(function (module, exports, require, __voiceMeta, __voiceImport) {' },
    footer: { js: '})' },
    logLevel: 'warning',
  };
}

// Run in a child process (a clean V8): runs the script, starts a dev server on the demo page on a
// free loopback port and fetches the page and its first modules (so the functions a start and its
// first requests run are compiled too), then writes the code cache. Dependencies are not bundled.
const MAKE_CACHE = `
const { writeFileSync } = require('node:fs');
const [loader, file, web, out] = process.argv.slice(1);
// A cache folder of its own, removed after: the demo's own dependency cache is never touched.
const cacheDir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'voice-vite-cache-'));
import(loader).then(async ({ runViteScript }) => {
  const { script, tools } = await runViteScript(file, { cache: false });
  const server = await tools.vite.createServer({
    configFile: false, envDir: false, root: web, cacheDir, logLevel: 'silent', clearScreen: false, appType: 'spa', plugins: [tools.react()],
    server: { host: '127.0.0.1', port: 0, watch: null, warmup: { clientFiles: ['./index.html', './src/main.tsx'] } },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await server.listen();
  const origin = 'http://127.0.0.1:' + server.httpServer.address().port;
  await (await fetch(origin + '/', { headers: { accept: 'text/html' } })).text();
  for (const url of ['/@vite/client', '/@react-refresh', '/src/main.tsx', '/src/App.tsx', '/src/index.css']) {
    await (await fetch(origin + url, { headers: { accept: '*/*' } })).text();
  }
  await server.close();
  writeFileSync(out, script.createCachedData());
  require('node:fs').rmSync(cacheDir, { recursive: true, force: true });
  process.exit(0);
});
`;

/**
 * Names the built script's versions and cache in its last lines and writes that cache. Returns the
 * cache's path, or an error text (the script then runs without a cache until `voice demo` makes one
 * in the user's folder).
 */
export async function makeViteCache(root) {
  const script = resolve(root, VITE_SCRIPT);
  const versions = VITE_PACKAGES.map((name) => `${name}@${JSON.parse(readFileSync(resolve(root, 'node_modules', name, 'package.json'), 'utf8')).version}`).join(',');
  appendFileSync(script, `\n//# voiceVersions=${versions}\n`);
  // The loader the CLI uses (cli/commands/demo/vite.ts), built on its own for the child.
  const loader = resolve(root, 'node_modules/.cache/voice-build/vite-load.mjs');
  await build({
    absWorkingDir: root,
    entryPoints: ['cli/commands/demo/vite.ts'],
    outfile: loader,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return makeCodeCache({ root, script, name: 'vite-script', maker: MAKE_CACHE, args: [pathToFileURL(loader).href, script, resolve(root, 'web')] });
}
