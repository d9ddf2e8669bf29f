// `voice test`'s engine: runs a folder's evals and simulations through the platform's runs API
// (the local emulator or the hosted platform, one client), follows them until they end, and
// reports each simulation's iterations with a pass rate and a verdict (flaky when they disagree).
import type { Client } from '../client/index.js';
import type { Json } from '../messages/index.js';
import type { TestFolder } from './lint.js';
import { ofKind } from './lint.js';

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
  verdict: 'pass' | 'fail' | 'flaky';
}

/** One eval run. */
export interface EvalReport {
  id: string;
  file: string;
  name: string;
  passed: boolean;
  reason?: string;
  ms: number;
}

/** Everything `voice test` ran. */
export interface TestReport {
  target: TestTarget;
  simulations: SimulationReport[];
  evals: EvalReport[];
  /** True when every required evaluation passed and no run errored. */
  ok: boolean;
  ms: number;
}

/** Options of `runTests`. */
export interface RunTestsOptions {
  client: Client;
  folder: TestFolder;
  /** The UUID a file id has on the platform the client talks to. */
  uuidOf(kind: string, id: string): string | undefined;
  target: TestTarget;
  iterations: number;
  /** Keeps the evals and simulations whose file id or name contains this (case-insensitive). */
  filter?: string;
  /** How often runs are read while they go on. */
  pollMs: number;
  /** Resolves when a run may have changed (an in-process platform); runs are then read at once instead of after pollMs. */
  nextChange?: () => Promise<void>;
  onProgress?: (p: Progress) => void;
  /** Stops polling (for tests and Ctrl-C). */
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((ok) => {
    const t = setTimeout(ok, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        ok();
      },
      { once: true },
    );
  });

/** Waits for the next change the platform signals, or pollMs at most. */
function pause(options: RunTestsOptions, change: Promise<void> | undefined): Promise<void> {
  const slept = sleep(options.pollMs, options.signal);
  return change ? Promise.race([change, slept]) : slept;
}

function nameOf(data: Json, id: string): string {
  return typeof data.name === 'string' && data.name ? data.name : id;
}

function matches(filter: string | undefined, id: string, name: string): boolean {
  if (!filter) return true;
  const f = filter.toLowerCase();
  return id.toLowerCase().includes(f) || name.toLowerCase().includes(f);
}

function uuid(options: RunTestsOptions, kind: string, id: string): string {
  const found = options.uuidOf(kind, id);
  if (!found) throw new Error(`${kind}/${id} is not on the platform yet (apply the folder first)`);
  return found;
}

async function runEvals(options: RunTestsOptions, picked: { id: string; file: string; name: string }[]): Promise<EvalReport[]> {
  const { client, target } = options;
  const body = (id: string): Json => ({
    type: 'eval',
    evalId: uuid(options, 'evals', id),
    target: target.type === 'squad' ? { type: 'squad', squadId: target.id } : { type: 'assistant', assistantId: target.id },
  });
  return Promise.all(
    picked.map(async (e) => {
      const started = Date.now();
      // Asked for before each read, so a change between the read and the wait still wakes it.
      let change = options.nextChange?.();
      let run = (await client.eval.run.create(body(e.id) as never)) as unknown as Json;
      while (run.status !== 'ended' && !options.signal?.aborted) {
        await pause(options, change);
        change = options.nextChange?.();
        run = (await client.eval.run.get(String(run.id))) as unknown as Json;
      }
      const results = (run.results as Json[] | undefined) ?? [];
      const passed = run.status === 'ended' && run.endedReason === 'mockConversation.done' && results.length > 0 && results.every((r) => r.status === 'pass');
      const reason = passed
        ? undefined
        : typeof run.endedMessage === 'string' && run.endedMessage
          ? run.endedMessage
          : run.status !== 'ended'
            ? 'stopped before the run ended'
            : `the run ended with ${String(run.endedReason)} and ${results.map((r) => String(r.status)).join(', ') || 'no results'}`;
      options.onProgress?.({ kind: 'eval', eval: e.name, status: passed ? 'pass' : 'fail', ...(reason ? { reason } : {}) });
      return { ...e, passed, ...(reason ? { reason } : {}), ms: Date.now() - started };
    }),
  );
}

interface SimPick {
  id: string;
  file: string;
  name: string;
  suite?: string;
  uuid: string;
}

async function runGroup(options: RunTestsOptions, sims: SimPick[]): Promise<Json[]> {
  const { client, target } = options;
  const body = {
    simulations: sims.map((s) => ({ type: 'simulation', simulationId: s.uuid })),
    target: target.type === 'squad' ? { type: 'squad', squadId: target.id } : { type: 'assistant', assistantId: target.id },
    iterations: options.iterations,
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
    await pause(options, change);
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
  const verdict = iterations.length && passed === iterations.length ? 'pass' : passed === 0 ? 'fail' : 'flaky';
  return { id: sim.id, file: sim.file, name: sim.name, ...(sim.suite ? { suite: sim.suite } : {}), iterations, passed, passRate: iterations.length ? passed / iterations.length : 0, verdict };
}

/** Runs the folder's evals and simulations (suites group them) and reports. */
export async function runTests(options: RunTestsOptions): Promise<TestReport> {
  const started = Date.now();
  const { folder } = options;
  const evals = ofKind(folder, 'evals')
    .map((r) => ({ id: r.id, file: r.file, name: nameOf(r.data, r.id) }))
    .filter((e) => matches(options.filter, e.id, e.name));
  const suiteOf = new Map<string, string>();
  for (const s of ofKind(folder, 'simulationSuites')) for (const id of (s.data.simulationIds as string[] | undefined) ?? []) if (!suiteOf.has(id)) suiteOf.set(id, nameOf(s.data, s.id));
  const sims: SimPick[] = ofKind(folder, 'simulations')
    .map((r) => ({ id: r.id, file: r.file, name: nameOf(r.data, r.id), ...(suiteOf.has(r.id) ? { suite: suiteOf.get(r.id) as string } : {}), uuid: uuid(options, 'simulations', r.id) }))
    .filter((s) => matches(options.filter, s.id, s.name));
  const groups = new Map<string, SimPick[]>();
  for (const s of sims) groups.set(s.suite ?? '', [...(groups.get(s.suite ?? '') ?? []), s]);
  const [evalReports, ...groupItems] = await Promise.all([runEvals(options, evals), ...[...groups.values()].map((g) => runGroup(options, g))]);
  const items = groupItems.flat();
  const simulations = sims.map((s) => reportOf(s, items));
  const ok = simulations.every((s) => s.verdict === 'pass') && evalReports.every((e) => e.passed) && simulations.length + evalReports.length > 0;
  return { target: options.target, simulations, evals: evalReports, ok, ms: Date.now() - started };
}
