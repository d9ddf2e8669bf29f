// Budget: `voice assistant list --json` start to exit <= 1.35x `node -e 0` (and the Ink table on a
// terminal <= 2.5x). Measured gain of the fast lane: 1.66x -> 1.24x; 698 M -> 599 M instructions (callgrind).
// esbuild options of the CLI's fast lane: dist/cli/fast.cjs (cli/launch/lane.ts: `voice --version`,
// and recognising a plain catalogue read) and dist/cli/fast-read.cjs (cli/launch/lane-read.ts: running
// it), without commander or the catalogue. Two self-contained CommonJS files, no code splitting,
// on purpose: built with the full CLI's splitting a read loaded 13 small chunks, and each ES module
// costs its own resolve, read and link (about 30 M instructions more per launch, callgrind); an ES
// module entry alone costs about 16 M more than a CommonJS one. bin/voice.js requires them. The
// modules they share with the full CLI are bundled in; none is written twice in the sources.
import { build } from 'esbuild';

const GENERATOR = `
import { catalogue, flatten } from './core/catalogue/index.ts';
import { readOperations } from './cli/launch/read-ops.ts';
export default readOperations(flatten(catalogue));
`;

/** The table of plain reads, from the catalogue's current sources (selection: cli/launch/read-ops.ts). */
async function readOpsTable(root) {
  const result = await build({
    stdin: { contents: GENERATOR, resolveDir: root, loader: 'ts', sourcefile: 'read-ops-generator.ts' },
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  const table = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)).default;
  const inputs = Object.keys(result.metafile.inputs)
    .filter((f) => !f.startsWith('<'))
    .map((f) => `${root}/${f}`);
  return { table, inputs };
}

// Modules the fast lane never runs, kept out of its file: Ink's ES module views (it draws from the
// Ink script instead: cli/launch/lane-ink.ts) and undici (it leaves proxies to the full CLI, and sends one
// request, far below the node transport's switch to undici's pool). Importing one rejects, which
// the callers handle.
const NEVER = /^(undici|\.\.\/ui\/render\.js|\.\/render\.js)$/;

/** `voice:read-ops` (the reads, generated from the catalogue) and stubs for what the lane never loads. */
function fastLanePlugin(root) {
  return {
    name: 'voice-fast-lane',
    setup(b) {
      b.onResolve({ filter: /^voice:read-ops$/ }, (args) => ({ path: args.path, namespace: 'voice-read-ops' }));
      b.onLoad({ filter: /.*/, namespace: 'voice-read-ops' }, async () => {
        const { table, inputs } = await readOpsTable(root);
        // JSON text parsed on first use: V8 scans a string literal much faster than the same object
        // written as a literal, and commands that are not reads never parse it.
        return { contents: `const text = ${JSON.stringify(JSON.stringify(table))};\nlet ops;\nexport default () => (ops ??= JSON.parse(text));\n`, loader: 'js', watchFiles: inputs };
      });
      // The read is its own file (dist/cli/fast-read.cjs), loaded only for a command line the lane takes.
      b.onResolve({ filter: /^\.\/lane-read\.js$/ }, (args) => (args.importer.endsWith('lane.ts') ? { path: './fast-read.cjs', external: true } : undefined));
      // The output code's way to Ink (../launch/ink-load.js) is the lane's own: the Ink script beside it.
      b.onResolve({ filter: /^\.\.\/launch\/ink-load\.js$/ }, (args) => (args.importer.endsWith('print.ts') ? { path: `${root}/cli/launch/lane-ink.ts` } : undefined));
      b.onResolve({ filter: NEVER }, (args) => ({ path: args.path, namespace: 'voice-never' }));
      b.onLoad({ filter: /.*/, namespace: 'voice-never' }, (args) => ({ contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the fast lane`)});\n`, loader: 'js' }));
    },
  };
}

/** The fast lane's build; `shared` holds the options it has in common with the full CLI's build. */
export function fastLaneBuild(root, shared) {
  return {
    ...shared,
    metafile: true,
    absWorkingDir: root,
    entryPoints: { fast: 'cli/launch/lane.ts', 'fast-read': 'cli/launch/lane-read.ts' },
    outdir: 'dist/cli',
    bundle: true,
    splitting: false,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    // import() becomes require(): no ES module is loaded on the lane (a crash report's Sentry too).
    supported: { 'dynamic-import': false },
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    plugins: [fastLanePlugin(root)],
    logLevel: 'warning',
  };
}
