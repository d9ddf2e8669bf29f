// The work of `voice test`: check the folder, pick the cases (the filter, the shard), start or reach
// the platform (test-platform.ts), run (core/evals/runner), then print, write JUnit, keep the
// times the next sharded run balances by, and exit by the results.
import { casesOf, NO_MODEL_REASON, ofKind, readTimes, runTests, shardOf, timesOf, timesPath, weightsOf, writeTimes } from '#core/evals/index';
import type { ShardInfo, TestCase, TestFolder, TestReport } from '#core/evals/index';
import type { Context } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { junitXml } from '../../output/junit.js';
import { prepareOutFile, writeOutFile } from '../../output/out-file.js';
import { printJson } from '../../output/print.js';
import { progressLine, reportText, summaryLine } from '../../output/test-report.js';
import { dim } from '../../output/style.js';
import { err, out } from '../../redact.js';
import { lintOrExit, localPlatform, platformTargets, remotePlatform } from './platform.js';
import type { Platform, TestOptions } from './platform.js';

export type { TestOptions } from './platform.js';

/** The cases a run takes: the filter's, then the shard's slice of them. */
export function selectCases(folder: TestFolder, dir: string, opts: TestOptions): { cases: TestCase[]; shard?: ShardInfo } {
  const all = casesOf(folder, opts.filter);
  if (!opts.shard) return { cases: all };
  const cut = shardOf(
    all.map((c) => c.key),
    opts.shard.index,
    opts.shard.total,
    weightsOf(readTimes(timesPath(dir)), opts.iterations),
  );
  return { cases: all.filter((c) => cut.keys.has(c.key)), shard: cut.info };
}

function shardLine(dir: string, shard: ShardInfo): string {
  const by = shard.balancedBy === 'times' ? `balanced by the last run's times in ${timesPath(dir)}` : `balanced by count (no times in ${timesPath(dir)} yet)`;
  return `Shard ${shard.index}/${shard.total}: ${shard.picked} of ${shard.cases} case(s), ${by}; partition ${shard.partition}\n`;
}

/** Runs the picked cases on a platform that is up. */
export async function runOn(ctx: Context, dir: string, folder: TestFolder, platform: Platform, cases: readonly TestCase[], opts: TestOptions, live: boolean): Promise<TestReport> {
  const { target, targetNamed } = platformTargets(folder, cases, platform, opts, dir);
  if (live) err(`${dim(`Running ${cases.length} case(s) of ${dir} against ${target.type} ${target.label} (${opts.iterations} iteration(s), concurrency ${opts.concurrency})`)}\n`);
  return runTests({
    client: platform.client,
    folder,
    uuidOf: platform.uuidOf,
    target,
    targetNamed,
    iterations: opts.iterations,
    pollMs: platform.pollMs,
    only: new Set(cases.map((c) => c.key)),
    budgets: opts.budgets ?? 'auto',
    ...(platform.nextChange ? { nextChange: platform.nextChange } : {}),
    ...(platform.turnTimings ? { turnTimings: platform.turnTimings } : {}),
    ...(opts.filter ? { filter: opts.filter } : {}),
    ...(live ? { onProgress: (p) => err(progressLine(p)) } : {}),
  });
}

/** Starts (or reaches) the platform the options name. */
export async function openPlatform(ctx: Context, dir: string, opts: TestOptions): Promise<Platform> {
  const remote = Boolean(opts.hosted || opts.apiUrl || opts.local);
  if (remote && (opts.llm || opts.llmReplay || opts.llmRecord))
    throw usageError(
      '--llm options configure the local platform voice test starts; a running platform uses its own model.',
      'Drop --api-url/--local/--hosted, or start `voice dev` with the --llm options.',
    );
  if (remote && opts.watch) throw usageError('--watch runs on the local platform voice test starts (it applies each change there).', 'Drop --api-url/--local/--hosted.');
  return remote ? remotePlatform(ctx, dir, Boolean(opts.hosted)) : localPlatform(dir, opts);
}

/** Runs `voice test` with parsed options; throws CliError for exit codes other than 0. */
export async function runTestCommand(ctx: Context, dir: string, opts: TestOptions): Promise<void> {
  const folder = lintOrExit(dir);
  if (opts.lint) {
    err(`No problems in ${dir}: ${ofKind(folder, 'evals').length} eval(s), ${ofKind(folder, 'simulations').length} simulation(s), ${ofKind(folder, 'simulationSuites').length} suite(s).\n`);
    return;
  }
  const { cases, shard } = selectCases(folder, dir, opts);
  if (shard) err(dim(shardLine(dir, shard)));
  if (opts.list) {
    if (ctx.output.mode === 'json') printJson({ cases: cases.map((c) => ({ key: c.key, file: c.file, name: c.name })), ...(shard ? { shard } : {}) }, ctx.output);
    else out(cases.map((c) => `${c.key}\t${c.name}\n`).join(''));
    return;
  }
  if (opts.watch) return (await import('./watch.js')).watchTests(ctx, dir, opts);
  if (!cases.length && !shard) throw usageError(`--filter ${opts.filter ?? ''} matched no eval or simulation in ${dir}.`);
  if (opts.junit) prepareOutFile(opts.junit, '--junit');
  let report: TestReport;
  if (!cases.length) report = { target: { type: 'assistant', id: '', label: '(none: this shard is empty)' }, simulations: [], evals: [], ok: true, ms: 0 };
  else {
    const platform = await openPlatform(ctx, dir, opts);
    try {
      report = await runOn(ctx, dir, folder, platform, cases, opts, process.stderr.isTTY && ctx.output.mode !== 'json');
    } finally {
      await platform.close();
    }
    if (opts.saveTimes) writeTimes(timesPath(dir), timesOf(report));
  }
  if (shard) report = { ...report, shard, ok: report.ok || !cases.length };
  if (opts.junit) writeOutFile(opts.junit, junitXml(report), '--junit');
  if (ctx.output.mode === 'json') printJson(report, ctx.output);
  else out(reportText(report, ctx.output.color));
  err(summaryLine(report));
  const reasons = [...report.simulations.flatMap((s) => s.iterations.map((i) => i.reason ?? '')), ...report.evals.map((e) => e.reason ?? '')];
  if (reasons.some((r) => r.includes('No model is configured'))) err(`\nNo model is configured. ${NO_MODEL_REASON}\n`);
  if (!report.ok) throw new CliError('Some evaluations failed (see above).', ExitCode.Failure);
}
