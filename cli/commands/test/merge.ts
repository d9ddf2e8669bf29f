// `voice test merge A.xml B.xml ... --junit ALL.xml`: one report from the JUnit files (or `--json`
// reports) of several jobs, flaky verdicts decided again across them (core/evals/merge.ts), with
// a missing shard or jobs that cut different partitions reported as failures, never passed over.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { mergeReports, timesOf, writeTimes } from '#core/evals/index';
import type { TestReport } from '#core/evals/index';
import { contextOf } from '../../context.js';
import { sharedOpts } from './shared.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { junitXml } from '../../output/junit.js';
import { reportFromJunit } from '../../output/junit-read.js';
import { prepareOutFile, writeOutFile } from '../../output/out-file.js';
import { printJson } from '../../output/print.js';
import { red } from '../../output/style.js';
import { reportText, summaryLine } from '../../output/test-report.js';
import { err, out } from '../../redact.js';

function readReport(file: string): TestReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw usageError(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  if (text.trimStart().startsWith('{')) {
    let parsed: Partial<TestReport>;
    try {
      parsed = JSON.parse(text) as Partial<TestReport>;
    } catch (e) {
      throw usageError(`${file}: not JSON (${(e as Error).message}).`);
    }
    if (!Array.isArray(parsed.simulations) || !Array.isArray(parsed.evals) || !parsed.target) throw usageError(`${file}: not a report of voice test --json.`);
    return parsed as TestReport;
  }
  const report = reportFromJunit(text);
  if (typeof report === 'string') throw usageError(`${file}: ${report}.`, 'Merge the files `voice test --junit FILE` (or --json) wrote.');
  return report;
}

/** The `test merge` command. */
export function testMergeCommand(): Command {
  return new Command('merge')
    .description('Merge the JUnit (or --json) reports of several jobs, such as the shards of a CI matrix, into one; flaky verdicts are decided across them')
    .argument('<reports...>', 'files `voice test --junit` (or `--json`) wrote')
    .option('--junit <file>', 'write the merged report as JUnit XML')
    .option('--times <file>', "write the cases' times, which `voice test --shard` balances by (commit it as DIR/.voice-times.json, or cache it)")
    .addHelpText(
      'after',
      `
A case found in several reports keeps every run: one that failed in one job and passed in another
is flaky. A missing shard, or shards cut from different cases or times, fail the merge (exit 1).

Examples:
  $ voice test merge reports/shard-*.xml --junit reports/voice-test.xml
  $ voice test merge reports/shard-*.xml --json --times resources/.voice-times.json
`,
    )
    .action((files: string[], _o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const opts = sharedOpts<{ junit?: string; times?: string }>(cmd, ['junit']);
      if (opts.junit) prepareOutFile(opts.junit, '--junit');
      if (opts.times) prepareOutFile(opts.times, '--times');
      const { report, problems } = mergeReports(files.map(readReport));
      if (opts.junit) writeOutFile(opts.junit, junitXml(report, new Date(), problems), '--junit');
      if (opts.times) writeTimes(opts.times, timesOf(report));
      if (ctx.output.mode === 'json') printJson({ ...report, problems }, ctx.output);
      else out(reportText(report, ctx.output.color));
      for (const p of problems) err(`${red('Merge problem:')} ${p}\n`);
      err(summaryLine(report).replace(' against ', ` in ${files.length} report(s) against `));
      if (problems.length) throw new CliError('The merged report is incomplete (see above).', ExitCode.Failure);
      if (!report.ok) throw new CliError('Some evaluations failed (see above).', ExitCode.Failure);
    });
}
