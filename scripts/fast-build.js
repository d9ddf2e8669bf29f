// esbuild options of the CLI's fast lane (dist/cli/fast.js, from cli/fast/index.ts): `voice
// --version` and plain catalogue reads without commander or the catalogue. One file, on purpose:
// built with the full CLI's code splitting it loaded 13 small chunks, and each ES module costs
// its own resolve, read and link (34 M instructions more per launch than one file, measured with
// callgrind). The modules it shares with the full CLI are bundled into it; none is written twice.
import { build } from 'esbuild';

const GENERATOR = `
import { catalogue, flatten } from './core/catalogue/index.ts';
import { readOperations } from './cli/fast/read-ops.ts';
export default readOperations(flatten(catalogue));
`;

/** The table of plain reads, from the catalogue's current sources (selection: cli/fast/read-ops.ts). */
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
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('<')).map((f) => `${root}/${f}`);
  return { table, inputs };
}

// Modules the fast lane never runs, kept out of its file: Ink (it leaves terminal tables to the
// full CLI) and undici (it leaves proxies to the full CLI, and sends one request, far below the
// node transport's switch to undici's pool). Importing one rejects, which the callers handle.
const NEVER = /^(undici|\.\.\/ui\/render\.js)$/;

/** `voice:read-ops` (the reads, generated from the catalogue) and stubs for what the lane never loads. */
function fastLanePlugin(root) {
  return {
    name: 'voice-fast-lane',
    setup(b) {
      b.onResolve({ filter: /^voice:read-ops$/ }, (args) => ({ path: args.path, namespace: 'voice-read-ops' }));
      b.onLoad({ filter: /.*/, namespace: 'voice-read-ops' }, async () => {
        const { table, inputs } = await readOpsTable(root);
        // JSON.parse of a string literal: V8 reads that faster than the same object written as a literal.
        return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(table))});\n`, loader: 'js', watchFiles: inputs };
      });
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
    entryPoints: { fast: 'cli/fast/index.ts' },
    outdir: 'dist/cli',
    bundle: true,
    splitting: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    plugins: [fastLanePlugin(root)],
    logLevel: 'warning',
  };
}
