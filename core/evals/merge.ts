// `voice test merge`: one report from the reports of several jobs (the shards of a CI matrix, a
// re-run job, the same suite on several machines). A case found in more than one report keeps every
// run: its iterations (or an eval's attempts) together decide its verdict again, so a case that
// failed in one job and passed in another is flaky. Shards are checked: a missing shard, or jobs that
// cut different partitions, make the merged report fail, saying which.
import type { EvalReport, IterationReport, SimulationReport, TestReport, Verdict } from './runner.js';

/** The merged report and what is wrong with the set of reports (a missing shard, ...). */
export interface Merged {
  report: TestReport;
  problems: string[];
}

function verdictOf(passed: number, runs: number): Verdict {
  return runs > 0 && passed === runs ? 'pass' : passed === 0 ? 'fail' : 'flaky';
}

function mergeSims(all: readonly SimulationReport[]): SimulationReport {
  const first = all[0] as SimulationReport;
  const iterations: IterationReport[] = all.flatMap((s) => s.iterations).map((it, i) => ({ ...it, iteration: i + 1 }));
  const passed = iterations.filter((i) => i.passed).length;
  return { ...first, iterations, passed, passRate: iterations.length ? passed / iterations.length : 0, verdict: verdictOf(passed, iterations.length) };
}

function mergeEvals(all: readonly EvalReport[]): EvalReport {
  const first = all[0] as EvalReport;
  if (all.length === 1) return first;
  const attempts = all.flatMap((e) => e.attempts ?? [{ passed: e.passed, ...(e.reason ? { reason: e.reason } : {}), ms: e.ms }]);
  const passed = attempts.filter((a) => a.passed).length;
  const verdict = verdictOf(passed, attempts.length);
  const failing = attempts.find((a) => !a.passed)?.reason ?? 'failed';
  const { reason: _r, ...rest } = first;
  return {
    ...rest,
    passed: verdict === 'pass',
    verdict,
    ...(verdict === 'pass' ? {} : { reason: verdict === 'flaky' ? `Flaky: passed ${passed} of ${attempts.length}. ${failing}` : failing }),
    ms: attempts.reduce((t, a) => t + a.ms, 0),
    attempts,
  };
}

function byKey<T extends { id: string }>(lists: readonly (readonly T[])[], merge: (all: T[]) => T): T[] {
  const groups = new Map<string, T[]>();
  for (const list of lists) for (const x of list) groups.set(x.id, [...(groups.get(x.id) ?? []), x]);
  return [...groups.values()].map(merge);
}

function shardProblems(reports: readonly TestReport[], seen: ReadonlySet<string>): string[] {
  const sharded = reports.filter((r) => r.shard);
  if (!sharded.length) return [];
  const problems: string[] = [];
  const partitions = new Map<string, TestReport[]>();
  for (const r of sharded) partitions.set(`${r.shard?.partition}/${r.shard?.total}`, [...(partitions.get(`${r.shard?.partition}/${r.shard?.total}`) ?? []), r]);
  if (partitions.size > 1)
    problems.push(
      `the shards were cut from different cases or times (${partitions.size} partitions: ${[...partitions.keys()].join(', ')}), so a case may be missing or run twice; give every job the same folder, filter and ${'.voice-times.json'}`,
    );
  for (const group of partitions.values()) {
    const info = group[0]?.shard;
    if (!info) continue;
    const present = new Set(group.map((r) => r.shard?.index));
    const missing = Array.from({ length: info.total }, (_, i) => i + 1).filter((i) => !present.has(i));
    if (missing.length)
      problems.push(`${missing.map((i) => `shard ${i}/${info.total}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing: no report of ${missing.length === 1 ? 'it' : 'them'} was given`);
    else if (seen.size < info.cases) problems.push(`the shards report ${seen.size} of the ${info.cases} cases they were cut from`);
  }
  return problems;
}

/** Merges reports; cases are matched by kind and file id. */
export function mergeReports(reports: readonly TestReport[]): Merged {
  const simulations = byKey(
    reports.map((r) => r.simulations),
    mergeSims,
  );
  const evals = byKey(
    reports.map((r) => r.evals),
    mergeEvals,
  );
  const seen = new Set([...simulations.map((s) => `simulations/${s.id}`), ...evals.map((e) => `evals/${e.id}`)]);
  const problems = shardProblems(reports, seen);
  const labels = [...new Set(reports.map((r) => `${r.target.type} ${r.target.label}`))];
  const target = reports[0]?.target ?? { type: 'assistant' as const, id: '', label: '' };
  const ok = !problems.length && simulations.length + evals.length > 0 && simulations.every((s) => s.verdict === 'pass') && evals.every((e) => e.verdict === 'pass');
  return {
    report: { target: labels.length > 1 ? { ...target, label: labels.join(', ') } : target, simulations, evals, ok, ms: Math.max(0, ...reports.map((r) => r.ms)) },
    problems,
  };
}
