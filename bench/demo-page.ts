// The demo page as a visitor gets it: `vite build` of web/ beside a bare React page built the same
// way; initial JS and CSS (gzip), the lazy chunks; then Lighthouse mobile on each, served from
// loopback by a static host (the demo with its local visitors endpoint), interleaved runs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LiveVisitorsFile } from '#core/visitors/file-store';
import { visitorsMiddleware } from '#core/visitors/postgrest';
import { coreSource } from '../web/vite/core-source.js';
import { PAGE_BUILD, pageBuildPlugins } from '../web/vite/page-build.js';
import { analyseBuild, lazyLoad, total } from './lib/built-page.js';
import type { BuiltFile, BuiltPage } from './lib/built-page.js';
import { lighthouseFlow, lighthouseOnce } from './lib/lighthouse.js';
import type { FlowRun, LighthouseRun } from './lib/lighthouse.js';
import { interleave } from './lib/sample.js';
import { KIB } from './lib/size.js';
import { row } from './lib/stats.js';
import { serveStatic } from './lib/static-server.js';
import type { Middleware, StaticServer } from './lib/static-server.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'demo-page';
const BARE = 'bench/fixtures/bare-react';

/** Builds a Vite project to a fresh directory with its own config file. */
async function viteBuild(ctx: BenchContext, projectDir: string, outName: string): Promise<string> {
  const { build } = await import('vite');
  const outDir = join(ctx.tmp, outName);
  await build({
    root: join(ctx.root, projectDir),
    configFile: join(ctx.root, projectDir, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

/**
 * Builds the demo page as `voice demo build` does (the page's plugins given inline): its config
 * file imports core's TypeScript sources, which Vite's config loader leaves to Node.
 */
async function pageBuild(ctx: BenchContext, outName: string): Promise<string> {
  const [{ build }, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
  const outDir = join(ctx.tmp, outName);
  await build({
    configFile: false,
    root: join(ctx.root, 'web'),
    envDir: false,
    logLevel: 'warn',
    plugins: [coreSource(join(ctx.root, 'core')), react(), ...pageBuildPlugins()],
    build: { ...PAGE_BUILD, outDir, emptyOutDir: true },
  });
  return outDir;
}

/** The phone form: its chunk and what it imports beyond the initial load (gzip). */
function formRow(form: BuiltFile[] | undefined): Row {
  const metric = 'phone form chunk, loaded when the form opens (gzip)';
  if (!form) return { bench, metric, unit: 'KiB', figure: { value: Number.NaN }, verdict: 'FAIL', note: 'no PhoneForm-*.js chunk in the build' };
  return row({
    bench,
    metric: `${metric.replace(' (gzip)', '')} (gzip, ${form.length} files)`,
    unit: 'KiB',
    figure: total(form) / KIB,
    budget: { op: '<=', limit: 45, on: 'figure' },
    note: form.map((f) => `${f.file.replace(/^assets\//, '')} ${(f.gzip / KIB).toFixed(1)}`).join(', '),
  });
}

function sizeRows(demo: BuiltPage, bare: BuiltPage): Row[] {
  const kib = (bytes: number): number => bytes / KIB;
  const lazy = demo.lazyJs
    .sort((a, b) => b.gzip - a.gzip)
    .map((f) => `${f.file.replace(/^assets\//, '')} ${kib(f.gzip).toFixed(1)}`)
    .join(', ');
  return [
    row({
      bench,
      metric: `initial JS (gzip, ${demo.initialJs.length} files)`,
      unit: 'KiB',
      figure: kib(total(demo.initialJs)),
      reference: { label: 'bare React', figure: kib(total(bare.initialJs)) },
      budget: { op: '<=', limit: 70, on: 'figure' },
      note: demo.initialJs.map((f) => `${f.file.replace(/^assets\//, '')} ${kib(f.gzip).toFixed(1)}`).join(', '),
    }),
    row({
      bench,
      metric: 'initial CSS (gzip)',
      unit: 'KiB',
      figure: kib(total(demo.initialCss)),
      reference: { label: 'bare React', figure: kib(total(bare.initialCss)) },
      note: demo.initialCss.map((f) => `${f.file.replace(/^assets\//, '')} ${kib(f.gzip).toFixed(1)}`).join(', '),
    }),
    row({
      bench,
      metric: `lazy JS chunks (gzip, ${demo.lazyJs.length} files)`,
      unit: 'KiB',
      figure: kib(total(demo.lazyJs)),
      note: lazy ? `lazy chunks (KiB gzip): ${lazy}` : 'no lazy chunks',
    }),
  ];
}

async function lighthouseRows(ctx: BenchContext, demoDir: string, bareDir: string): Promise<Row[]> {
  const visitorsFile = join(ctx.root, 'fixtures', 'visitors.json');
  const middleware: Middleware[] = existsSync(visitorsFile) ? [visitorsMiddleware(new LiveVisitorsFile(visitorsFile)) as Middleware] : [];
  const servers: StaticServer[] = [];
  try {
    const demo = await serveStatic(demoDir, middleware);
    servers.push(demo);
    const bare = await serveStatic(bareDir);
    servers.push(bare);
    const runs: Record<string, LighthouseRun[]> = { demo: [], bare: [] };
    const urls: Record<string, string> = { demo: `${demo.origin}/acme`, bare: `${bare.origin}/` };
    const tasks = Object.fromEntries(
      Object.keys(urls).map((name) => [
        name,
        async () => {
          const run = await lighthouseOnce(urls[name] as string, ctx.tmp);
          (runs[name] as LighthouseRun[]).push(run);
          return run.score;
        },
      ]),
    );
    const rounds = ctx.quick ? 1 : 5;
    await interleave(tasks, { warmup: 0, rounds, onRound: (i) => ctx.log(`lighthouse round ${i + 1}/${rounds}`) });
    const pick = (name: string, key: 'score' | 'fcp' | 'lcp' | 'tbt'): number[] => (runs[name] as LighthouseRun[]).map((r) => r[key]);
    const metric = (key: 'fcp' | 'lcp' | 'tbt', label: string): Row =>
      row({ bench, metric: `Lighthouse mobile ${label}`, unit: 'ms', figure: pick('demo', key), reference: { label: 'bare React', figure: pick('bare', key) } });
    const off = [...new Set((runs.demo as LighthouseRun[]).flatMap((r) => r.offLoopback))];
    const flows = await formFlows(ctx, urls.demo as string, rounds);
    return [
      row({
        bench,
        metric: 'Lighthouse mobile performance score',
        unit: '',
        figure: pick('demo', 'score'),
        reference: { label: 'bare React', figure: pick('bare', 'score') },
        budget: { op: '>=', limit: 100, on: 'figure' },
      }),
      metric('fcp', 'FCP'),
      row({
        bench,
        metric: 'Lighthouse mobile LCP',
        unit: 'ms',
        figure: pick('demo', 'lcp'),
        reference: { label: 'bare React', figure: pick('bare', 'lcp') },
        budget: { op: '<=', limit: 1.05, on: 'ratio' },
      }),
      metric('tbt', 'TBT'),
      ...flowRows(flows),
      row({
        bench,
        metric: 'requests leaving 127.0.0.1 during Lighthouse',
        unit: '',
        figure: off.length,
        budget: { op: '<=', limit: 0, on: 'figure' },
        note: off.length ? off.join(', ') : undefined,
      }),
    ];
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

/** The page loaded, then Call Me pressed (the form's chunk loads, the phone field takes focus), as a Lighthouse user flow. */
async function formFlows(ctx: BenchContext, url: string, rounds: number): Promise<FlowRun[]> {
  const runs: FlowRun[] = [];
  for (let i = 0; i < rounds; i++) {
    ctx.log(`lighthouse flow (form open) ${i + 1}/${rounds}`);
    runs.push(
      await lighthouseFlow(url, ctx.tmp, async (page) => {
        await page.waitForSelector('button[aria-expanded]');
        await page.click('button[aria-expanded]');
        await page.waitForSelector('input[type="tel"]');
      }),
    );
  }
  return runs;
}

function flowRows(runs: FlowRun[]): Row[] {
  const failed = (lists: string[][]) => [...new Set(lists.flat())].join(', ') || undefined;
  const at100 = (metric: string, figure: number[], note?: string): Row => row({ bench, metric, unit: '', figure, budget: { op: '>=', limit: 100, on: 'figure' }, note });
  return [
    at100(
      'Lighthouse mobile accessibility score, page loaded',
      runs.map((r) => r.loaded.accessibility),
      failed(runs.map((r) => r.loaded.failed)),
    ),
    at100(
      'Lighthouse mobile performance score, opening the Call Me form (timespan)',
      runs.map((r) => r.action.performance),
      runs.map((r) => `TBT ${Math.round(r.action.tbt)} ms, CLS ${r.action.cls.toFixed(3)}`).join('; '),
    ),
    at100(
      'Lighthouse mobile accessibility score, Call Me form open',
      runs.map((r) => r.after.accessibility),
      failed(runs.map((r) => r.after.failed)),
    ),
  ];
}

const benchmark: Benchmark = {
  name: bench,
  title: 'demo page: vite build sizes (gzip) and Lighthouse mobile (median of 5), beside a bare React page',
  async run(ctx): Promise<Row[]> {
    const demoDir = await pageBuild(ctx, 'demo-build');
    const bareDir = await viteBuild(ctx, BARE, 'bare-build');
    const demo = await analyseBuild(demoDir);
    const rows = [...sizeRows(demo, await analyseBuild(bareDir)), formRow(await lazyLoad(demoDir, demo, 'PhoneForm'))];
    return [...rows, ...(await lighthouseRows(ctx, demoDir, bareDir))];
  },
};

export default benchmark;
