// Web-call client size: our own code (core/webcall plus what it pulls from core) minified and
// gzipped with daily-js left out, beside the platform's browser SDK bundled the same way. The local
// transport (emulator calls only) is a media layer loaded on demand like daily-js: it is measured
// on its own row, not in the client's budget.
import { build } from 'esbuild';
import { join } from 'node:path';
import { row } from './lib/stats.js';
import { KIB, gzipBytes } from './lib/size.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const DAILY = '@daily-co/daily-js';

/** Sizes of one bundle: every output file gzipped separately. */
interface BundleSize {
  /** All JS the library can ever load (entry plus lazy chunks), gzip bytes. */
  total: number;
  /** The entry file alone, gzip bytes. */
  entry: number;
  files: number;
  /** The local transport's lazy chunk, gzip bytes (0 when there is none). */
  local: number;
}

/** Bundles an entry for the browser (minified ESM, daily-js external) and measures it. */
async function measure(entry: { file: string } | { code: string }, ctx: BenchContext): Promise<BundleSize> {
  const result = await build({
    absWorkingDir: ctx.root,
    ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.code, resolveDir: ctx.root, sourcefile: 'entry.js' } }),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    outdir: join(ctx.tmp, 'webcall-size', String(Math.random()).slice(2)),
    write: false,
    external: [DAILY],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const isLocal = (path: string) => /[\\/]local-transport-[^\\/]*\.js$/.test(path);
  const all = result.outputFiles.filter((file) => file.path.endsWith('.js'));
  const js = all.filter((file) => !isLocal(file.path));
  const sizes = js.map((file) => gzipBytes(file.contents));
  const entryIndex = js.findIndex((file) => !/[\\/]chunk-/.test(file.path));
  const local = all.filter((file) => isLocal(file.path)).reduce((sum, file) => sum + gzipBytes(file.contents), 0);
  return { total: sizes.reduce((a, b) => a + b, 0), entry: sizes[entryIndex] ?? Number.NaN, files: js.length, local };
}

const benchmark: Benchmark = {
  name: 'webcall-size',
  title: 'web-call client own code, minified + gzip, without daily-js',
  async run(ctx): Promise<Row[]> {
    const ours = await measure({ file: 'core/webcall/index.ts' }, ctx);
    const theirs = await measure({ code: "export * from '@vapi-ai/web';\nexport { default } from '@vapi-ai/web';\n" }, ctx);
    const bench = 'webcall-size';
    return [
      row({
        bench,
        metric: 'own code, all chunks but the local transport (gzip)',
        unit: 'KiB',
        figure: ours.total / KIB,
        reference: { label: '@vapi-ai/web', figure: theirs.total / KIB },
        budget: { op: '<=', limit: 10, on: 'figure' },
        note: ours.files > 1 ? `${ours.files} files; entry alone ${(ours.entry / KIB).toFixed(2)} KiB` : undefined,
      }),
      row({
        bench,
        metric: 'local transport chunk, emulator calls only (gzip)',
        unit: 'KiB',
        figure: ours.local / KIB,
        note: 'loaded with import() only when a call joins the emulator, as daily-js is only for Daily',
      }),
    ];
  },
};

export default benchmark;
