// `voice test`'s engine: runs a folder's evals and simulations through the platform's runs API
// (the local emulator or the hosted platform, one client), follows them until they end, and
// reports each simulation's iterations with a pass rate and a verdict (flaky when they disagree).
// A test may name its own target (`x-voice.target`); otherwise it runs against the default one.
import type { Client } from '../client/index.js';
import type { Json } from '../messages/index.js';
import type { BudgetMode, LatencyReport, TurnTiming } from './budgets.js';
import type { TestCase } from './cases.js';
import { casesOf } from './cases.js';
import type { TestFolder } from './lint.js';
import { pause } from './poll.js';
import { runEvals } from './run-evals.js';
import type { ShardInfo } from './shard.js';
import { VoiceError } from '../errors.js';

/** What a target is, by UUID. */
export interface TestTarget {
  type: 'assistant' | 'squad';
  id: string;
  /** Its file id or name, for the report. */
  label: string;
}

/** Progress while runs go on. */
export type Progress = { kind: 'item'; simulation: string; iteration: number; of: number; status: string; reason?: string } | { kind: 'eval'; eval: string; status: 'pass' | 'fail'; reason?: string };

/** One iteration of a simulation. */
export interface IterationReport {
  iteration: number;
  status: string;
  passed: boolean;
  reason?: string;
  evaluations: Json[];
  ms?: number;
  /** What a JUnit file read back said of it (its evaluations are not in JUnit as data). */
  detail?: string;
}

/** A simulation across its iterations. */
export interface SimulationReport {
  id: string;
  file: string;
  name: string;
  suite?: string;
  iterations: IterationReport[];
  passed: number;
  passRate: number;
  /** `pass` when every iteration passed, `fail` when none did, `flaky` when some did. */
  verdict: Verdict;
  /** The target's label, when the test names its own (`x-voice.target`). */
  target?: string;
}

/** A case's verdict: flaky when some of its runs passed and some did not. */
export type Verdict = 'pass' | 'fail' | 'flaky';

/** One eval run (or, merged from several reports, its attempts). */
export interface EvalReport {
  id: string;
  file: string;
  name: string;
  passed: boolean;
  verdict: Verdict;
  reason?: string;
  ms: number;
  target?: string;
  /** Where an imported eval came from (`x-voice.source`). */
  source?: Record<string, string>;
  /** The measured time to first token per judged turn, and the budgets' verdict. */
  latency?: LatencyReport;
  /** Each run of the eval, when a merge found it in more than one report. */
  attempts?: { passed: boolean; reason?: string; ms: number }[];
}

/** Everything `voice test` ran. */
export interface TestReport {
  target: TestTarget;
  simulations: SimulationReport[];
  evals: EvalReport[];
  /** True when every required evaluation passed and no run errored. */
  ok: boolean;
  ms: number;
  /** The slice of the folder this run was, when sharded. */
  shard?: ShardInfo;
}

/** Options of `runTests`. */
export interface RunTestsOptions {
  client: Client;
  folder: TestFolder;
  /** The UUID a file id has on the platform the client talks to. */
  uuidOf(kind: string, id: string): string | undefined;
  /** The target of the tests that name none. */
  target: TestTarget;
  /** The platform target of an assistant or squad file id a test names (`x-voice.target`). */
  targetNamed?(fileId: string): TestTarget | undefined;
  iterations: number;
  /** Keeps the evals and simulations whose file id or name contains this (case-insensitive). */
  filter?: string;
  /** Keeps only these cases (`evals/ID`, `simulations/ID`): a shard, or what a change touched. */
  only?: ReadonlySet<string>;
  /** How often runs are read while they go on. */
  pollMs: number;
  /** Resolves when a run may have changed (an in-process platform); runs are then read at once instead of after pollMs. */
  nextChange?: () => Promise<void>;
  /** The turn timings of an ended eval run, where the platform measured them (the in-process one). */
  turnTimings?: (runId: string) => TurnTiming[] | undefined;
  /** When latency budgets are judged (default `auto`: not on cassette replays). */
  budgets?: BudgetMode;
  onProgress?: (p: Progress) => void;
  /** Stops polling (for tests and Ctrl-C). */
  signal?: AbortSignal;
}

function uuid(options: RunTestsOptions, kind: string, id: string): string {
  const found = options.uuidOf(kind, id);
  if (!found) throw new VoiceError(`${kind}/${id} is not on the platform yet (apply the folder first)`);
  return found;
}

function targetOf(options: RunTestsOptions, test: TestCase): TestTarget {
  if (!test.target) return options.target;
  const found = options.targetNamed?.(test.target);
  if (!found) throw new VoiceError(`${test.file} names the target ${test.target} (x-voice.target), which is not on the platform yet (apply the folder first)`);
  return found;
}

interface SimPick {
  id: string;
  file: string;
  name: string;
  suite?: string;
  uuid: string;
  target: TestTarget;
  own: boolean;
  /** The run's transport (`x-voice.transport`); unset: the platform's default, chat. */
  transport?: string;
}

async function runGroup(options: RunTestsOptions, sims: SimPick[]): Promise<Json[]> {
  const { client } = options;
  const target = (sims[0] as SimPick).target;
  const body = {
    simulations: sims.map((s) => ({ type: 'simulation', simulationId: s.uuid })),
    target: target.type === 'squad' ? { type: 'squad', squadId: target.id } : { type: 'assistant', assistantId: target.id },
    iterations: options.iterations,
    ...(sims[0]?.transport ? { transport: { provider: sims[0].transport } } : {}),
  };
  let change = options.nextChange?.();
  let run = (await client.eval.simulation.run.create(body as never)) as unknown as Json;
  const seen = new Map<string, string>();
  const finished = (r: Json): number => {
    const c = (r.itemCounts as Json | undefined) ?? {};
    return Number(c.passed ?? 0) + Number(c.failed ?? 0) + Number(c.canceled ?? 0);
  };
  let listedAt = -1;
  let items: Json[] = [];
  for (;;) {
    // The items (transcripts and all) are read only when the run's counts say one has finished,
    // and while the run goes on only when someone watches the progress.
    if ((options.onProgress && finished(run) !== listedAt) || run.status === 'ended' || options.signal?.aborted) {
      listedAt = finished(run);
      items = (await client.eval.simulation.run.item.list(String(run.id), { limit: 1000 } as never)) as unknown as Json[];
    }
    for (const item of items) {
      const status = String(item.status);
      if (seen.get(String(item.id)) === status || !['passed', 'failed', 'canceled'].includes(status)) continue;
      seen.set(String(item.id), status);
      const sim = sims.find((s) => s.uuid === item.simulationId);
      options.onProgress?.({
        kind: 'item',
        simulation: sim?.name ?? String(item.simulationId),
        iteration: Number(item.iterationNumber ?? 1),
        of: options.iterations,
        status,
        ...(typeof item.failureReason === 'string' ? { reason: item.failureReason } : {}),
      });
    }
    if (run.status === 'ended' || options.signal?.aborted) return items;
    await pause(options.pollMs, change, options.signal);
    change = options.nextChange?.();
    run = (await client.eval.simulation.run.get(String(run.id))) as unknown as Json;
  }
}

function reportOf(sim: SimPick, items: readonly Json[]): SimulationReport {
  const mine = items.filter((i) => i.simulationId === sim.uuid).sort((a, b) => Number(a.iterationNumber) - Number(b.iterationNumber));
  const iterations = mine.map((i): IterationReport => {
    const results = (i.results as Json | undefined) ?? {};
    const ms = typeof i.startedAt === 'string' && typeof (i.completedAt ?? i.failedAt) === 'string' ? Date.parse(String(i.completedAt ?? i.failedAt)) - Date.parse(i.startedAt) : undefined;
    const passed = i.status === 'passed' && results.passed === true;
    const reason = passed ? undefined : typeof i.failureReason === 'string' ? i.failureReason : `the item ended ${String(i.status)}`;
    return {
      iteration: Number(i.iterationNumber ?? 1),
      status: String(i.status),
      passed,
      ...(reason ? { reason } : {}),
      evaluations: (results.evaluations as Json[] | undefined) ?? [],
      ...(ms !== undefined ? { ms } : {}),
    };
  });
  const passed = iterations.filter((i) => i.passed).length;
  const verdict: Verdict = iterations.length && passed === iterations.length ? 'pass' : passed === 0 ? 'fail' : 'flaky';
  return {
    id: sim.id,
    file: sim.file,
    name: sim.name,
    ...(sim.suite ? { suite: sim.suite } : {}),
    iterations,
    passed,
    passRate: iterations.length ? passed / iterations.length : 0,
    verdict,
    ...(sim.own ? { target: sim.target.label } : {}),
  };
}

/** Runs the folder's evals and simulations (suites group them) and reports. */
export async function runTests(options: RunTestsOptions): Promise<TestReport> {
  const started = Date.now();
  const picked = casesOf(options.folder, options.filter).filter((c) => !options.only || options.only.has(c.key));
  const evals = picked.filter((c) => c.kind === 'evals').map((test) => ({ test, target: targetOf(options, test), evalId: uuid(options, 'evals', test.id) }));
  const sims: SimPick[] = picked
    .filter((c) => c.kind === 'simulations')
    .map((c) => ({
      id: c.id,
      file: c.file,
      name: c.name,
      ...(c.suite ? { suite: c.suite } : {}),
      uuid: uuid(options, 'simulations', c.id),
      target: targetOf(options, c),
      own: Boolean(c.target),
      ...(c.transport ? { transport: c.transport } : {}),
    }));
  // One simulation run per suite, target and transport: a run has one of each.
  const groups = new Map<string, SimPick[]>();
  for (const s of sims) {
    const key = `${s.suite ?? ''}\u0000${s.target.type}:${s.target.id}\u0000${s.transport ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const [evalReports, ...groupItems] = await Promise.all([runEvals(options, evals), ...[...groups.values()].map((g) => runGroup(options, g))]);
  const items = groupItems.flat();
  const simulations = sims.map((s) => reportOf(s, items));
  const ok = simulations.every((s) => s.verdict === 'pass') && evalReports.every((e) => e.passed) && simulations.length + evalReports.length > 0;
  return { target: options.target, simulations, evals: evalReports, ok, ms: Date.now() - started };
}
