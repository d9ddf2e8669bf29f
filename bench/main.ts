// The benchmark harness: `npm run bench [-- <name>...] [--json FILE] [--quick]`.
// Runs the chosen benchmarks one after another, each in its own process, prints each row as it lands and a summary table
// at the end, writes every result to a JSON file on request, and exits 1 when a budget is missed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { errorRow } from './lib/stats.js';
import { formatLine, notes, summaryTable } from './lib/report.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

type Loader = () => Promise<{ default: Benchmark }>;

// Loaded lazily so one benchmark whose subject is broken cannot stop the others.
const registry: Record<string, Loader> = {
  'cli-start': () => import('./cli-start.js'),
  'client-throughput': () => import('./client-throughput.js'),
  emulator: () => import('./emulator.js'),
  calls: () => import('./calls.js'),
  load: () => import('./load.js'),
  apply: () => import('./apply.js'),
  'webcall-size': () => import('./webcall-size.js'),
  'demo-page': () => import('./demo-page.js'),
  'demo-start': () => import('./demo-start.js'),
  reset: () => import('./reset.js'),
  inspector: () => import('./inspector.js'),
  'cli-instructions': () => import('./cli-instructions.js'),
  'model-step': () => import('./model-step.js'),
  'voice-test': () => import('./voice-test.js'),
  audio: () => import('./audio.js'),
  'audio-call': () => import('./audio-call.js'),
};

// Run only when named: slow, and informational (see bench/cli-instructions.ts).
const ON_REQUEST = new Set(['cli-instructions']);

const usage = `Usage: npm run bench [-- <name>...] [--json FILE] [--quick]

Benchmarks: ${Object.keys(registry).join(', ')}
(cli-instructions runs only when named: it counts instructions under valgrind, slowly)

  --json FILE   write every result row (and run facts) to FILE as JSON
  --quick       tiny iteration counts (smoke test; the figures mean little)
  --list        print the benchmark names and exit
  -h, --help    this help

Exit codes: 0 every budget held, 1 a budget missed or a benchmark failed, 2 usage error,
3 no budget missed but one or more unsteady (the median holds, the interquartile range crosses).`;

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n\n${usage}\n`);
  process.exit(2);
}

function parse(argv: string[]): { names: string[]; json?: string; quick: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'string' },
        quick: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  if (parsed.values.list) {
    process.stdout.write(`${Object.keys(registry).join('\n')}\n`);
    process.exit(0);
  }
  const unknown = parsed.positionals.filter((name) => !(name in registry));
  if (unknown.length) fail(`unknown benchmark ${unknown.map((n) => `"${n}"`).join(', ')}`);
  const names = parsed.positionals.length ? [...new Set(parsed.positionals)] : Object.keys(registry).filter((name) => !ON_REQUEST.has(name));
  const out: { names: string[]; json?: string; quick: boolean } = { names, quick: parsed.values.quick };
  if (parsed.values.json !== undefined) out.json = resolve(parsed.values.json);
  return out;
}

/**
 * Runs one benchmark in this process: its header, rows and time go to stdout as they land.
 * Exported for the child process `isolated` starts.
 */
export async function runOne(name: string, ctx: BenchContext): Promise<Row[]> {
  const started = performance.now();
  let benchmark: Benchmark;
  try {
    benchmark = (await (registry[name] as Loader)()).default;
  } catch (error) {
    return [errorRow(name, 'load', error)];
  }
  process.stdout.write(`\n== ${benchmark.name}: ${benchmark.title}\n`);
  let rows: Row[];
  try {
    rows = await benchmark.run(ctx);
  } catch (error) {
    rows = [errorRow(name, 'run', error)];
  }
  for (const row of rows) process.stdout.write(`${formatLine(row)}\n`);
  process.stdout.write(`  (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  return rows;
}

/**
 * Runs one benchmark in a fresh Node process (the bundle's own entry, `VOICE_BENCH_MAIN`), so no
 * row inherits the heap, compiled code or open handles of the rows before it: in one long process
 * the load generator ran at 14,000 deliveries a second after the other rows, 19,000 to 22,000 alone.
 * Its output passes through; its rows come back in a file.
 */
async function isolated(name: string, ctx: BenchContext): Promise<Row[]> {
  const entry = process.env.VOICE_BENCH_MAIN;
  if (!entry) return runOne(name, ctx);
  const file = join(ctx.tmp, `rows-${name}.json`);
  const script = `const m = await import(${JSON.stringify(pathToFileURL(entry).href)}); await m.child(${JSON.stringify({ name, file, quick: ctx.quick, root: ctx.root, tmp: ctx.tmp })});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('exit', (c) => resolve(c));
  });
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Row[];
  } catch {
    return [errorRow(name, 'run', new Error(`its process ended (exit ${code}) without reporting`))];
  }
}

/** The child side of `isolated`: runs one benchmark and writes its rows to `file`. */
export async function child(o: { name: string; file: string; quick: boolean; root: string; tmp: string }): Promise<void> {
  const ctx: BenchContext = { quick: o.quick, root: o.root, tmp: o.tmp, log: (message) => process.stderr.write(`  · ${message}\n`) };
  const rows = await runOne(o.name, ctx);
  writeFileSync(o.file, JSON.stringify(rows));
  process.exit(0);
}

function removeScratch(tmp: string): void {
  try {
    rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch (error) {
    process.stderr.write(`bench: could not remove ${tmp}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** What the entry script provides besides the arguments. */
export interface MainHooks {
  /** Rebuilds dist/ when it is older than the sources (the CLI benchmarks run the build). */
  ensureBuilt?: () => Promise<void>;
}

// Benchmarks that launch bin/voice.js, which runs dist/.
const NEEDS_BUILD = new Set(['cli-start', 'demo-start', 'apply']);

/** Runs the harness with the given arguments; resolves to the process exit code. */
export async function main(argv: string[], root: string, hooks: MainHooks = {}): Promise<number> {
  const options = parse(argv);
  // Exit through process.exit on Ctrl-C so exit hooks stop what the bench started.
  process.once('SIGINT', () => process.exit(130));
  if (hooks.ensureBuilt && options.names.some((name) => NEEDS_BUILD.has(name))) {
    try {
      await hooks.ensureBuilt();
    } catch (error) {
      process.stderr.write(`bench: could not rebuild dist/ (${error instanceof Error ? error.message : String(error)}); measuring what is there\n`);
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), 'voice-bench-'));
  process.once('exit', () => removeScratch(tmp));
  const ctx: BenchContext = {
    quick: options.quick,
    root,
    tmp,
    log: (message) => process.stderr.write(`  · ${message}\n`),
  };
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const loadBefore = loadAverage();
  process.stdout.write(
    `voice bench: ${options.names.join(', ')}${options.quick ? ' (quick)' : ''} on node ${process.version}, ` +
      `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}), load average ${loadBefore}\n`,
  );
  const rows: Row[] = [];
  try {
    for (const name of options.names) rows.push(...(await isolated(name, ctx)));
  } finally {
    removeScratch(tmp);
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`\n## Summary\n\n${summaryTable(rows)}\n`);
  const extra = notes(rows);
  if (extra.length) process.stdout.write(`\nNotes:\n${extra.join('\n')}\n`);
  const failed = rows.filter((row) => row.verdict === 'FAIL');
  const unsteady = rows.filter((row) => row.verdict === 'UNSTEADY');
  const loadAfter = loadAverage();
  process.stdout.write(
    `\nTotal ${seconds.toFixed(1)} s; ${rows.filter((r) => r.verdict === 'PASS').length} PASS, ${failed.length} FAIL, ` +
      `${unsteady.length} UNSTEADY, ${rows.filter((r) => r.verdict === 'INFO').length} INFO. ` +
      `Load average ${loadBefore} at the start, ${loadAfter} at the end.\n`,
  );
  if (options.json) {
    mkdirSync(dirname(options.json), { recursive: true });
    const facts = {
      startedAt,
      seconds,
      quick: options.quick,
      node: process.version,
      cores: availableParallelism(),
      cpu: cpus()[0]?.model,
      loadAverage: { start: loadBefore, end: loadAfter },
    };
    writeFileSync(options.json, `${JSON.stringify({ ...facts, rows }, null, 2)}\n`);
    process.stdout.write(`Results written to ${options.json}\n`);
  }
  return failed.length ? 1 : unsteady.length ? 3 : 0;
}

/** The 1, 5 and 15 minute load averages, e.g. `2.10 1.95 1.80`. */
function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}
