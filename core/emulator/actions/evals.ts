// Simulation runs: `POST /eval/simulation/run` makes one item per simulation and iteration and
// plays each on the model step (core/evals) in the background, at most the org's concurrency at
// once. Without a model every item fails at once with the reason; nothing is ever passed unjudged.
import { randomUUID } from 'node:crypto';
import type { Json } from '../../messages/index.js';
import { testerOf } from '../../evals/dialogue.js';
import { runItem } from '../../evals/simulate.js';
import { noModelReason, resolveTarget } from '../../evals/types.js';
import { NO_MODEL_REASON } from '../../evals/reasons.js';
import type { Ctx, Handler } from '../http/context.js';
import { createIn, find } from '../resources/crud.js';
import { badRequest, notFound } from '../errors.js';
import { compileList } from '../resources/lists.js';
import type { RunHost } from './runs.js';
import type { Rec, Store } from '../store/store.js';
import { check } from '../resources/validate.js';
import { topLevel } from './place.js';

export { createEvalRun, evalRunRead } from './eval-runs.js';
export { cancelItem, concurrency, generateScenarios, getItem, listItems, suggest } from './sim-items.js';

const SIM_RUNS = { ...topLevel('eval/simulation/run'), idParam: 'id' };
/** The collection of simulation run items. */
export const ITEMS = 'eval/simulation/run/item';

/** The published item counts of a run's items. */
export function countsOf(items: readonly Rec[]): Record<string, number> {
  const n = (s: string): number => items.filter((i) => i.status === s).length;
  const sims = new Set(items.map((i) => i.simulationId));
  const failedSims = new Set(items.filter((i) => i.status === 'failed').map((i) => i.simulationId));
  return {
    total: items.length,
    passed: n('passed'),
    failed: n('failed'),
    running: n('running') + n('evaluating'),
    queued: n('queued'),
    canceled: n('canceled'),
    distinctSimulationTotal: sims.size,
    distinctSimulationFailed: failedSims.size,
  };
}

/** One simulation a run plays: its scenario and personality, or why it cannot run. */
interface Planned {
  simulationId: string;
  scenario?: Json;
  personality?: Json;
  name?: string;
  problem?: string;
}

function planSimulation(store: Store, id: string): Planned {
  const sim = store.get('eval/simulation', id);
  if (!sim) throw notFound('Simulation');
  const scenario = typeof sim.scenarioId === 'string' ? store.get('eval/simulation/scenario', sim.scenarioId) : undefined;
  const personality = typeof sim.personalityId === 'string' ? store.get('eval/simulation/personality', sim.personalityId) : undefined;
  const missing = !scenario ? `the scenario ${String(sim.scenarioId)} does not exist` : !personality ? `the personality ${String(sim.personalityId)} does not exist` : undefined;
  return {
    simulationId: id,
    ...(scenario ? { scenario } : {}),
    ...(personality ? { personality } : {}),
    ...(typeof sim.name === 'string' ? { name: sim.name } : {}),
    ...(missing ? { problem: `The simulation cannot run: ${missing}.` } : {}),
  };
}

/** The simulations a run entry names: one simulation, every simulation of a suite, or an inline one. */
function planEntry(ctx: Ctx, entry: Json, at: number): Planned[] {
  const store = ctx.store;
  if (entry.type === 'simulationSuite') {
    const suite = store.get('eval/simulation/suite', String(entry.simulationSuiteId ?? entry.suiteId));
    if (!suite) throw notFound('Simulation suite');
    return ((suite.simulationIds as string[] | undefined) ?? []).map((id) => planSimulation(store, id));
  }
  if (entry.type !== 'simulation') throw badRequest([`simulations.${at}.type must be simulation or simulationSuite`]);
  if (typeof entry.simulationId === 'string') return [planSimulation(store, entry.simulationId)];
  const scenario = (entry.scenario as Json | undefined) ?? (typeof entry.scenarioId === 'string' ? store.get('eval/simulation/scenario', entry.scenarioId) : undefined);
  const personality = (entry.personality as Json | undefined) ?? (typeof entry.personalityId === 'string' ? store.get('eval/simulation/personality', entry.personalityId) : undefined);
  if (!scenario) throw badRequest([`simulations.${at}.scenario should not be empty (an inline simulation needs scenario, or scenarioId naming an existing scenario)`]);
  if (!personality) throw badRequest([`simulations.${at}.personality should not be empty (an inline simulation needs personality, or personalityId naming an existing personality)`]);
  return [{ simulationId: randomUUID(), scenario, personality, ...(typeof entry.name === 'string' ? { name: entry.name } : {}) }];
}

function settle(store: Store, run: Rec): void {
  const items = store.all(ITEMS).filter((i) => i.runId === run.id);
  run.itemCounts = countsOf(items);
  if (run.status !== 'ended' && items.every((i) => ['passed', 'failed', 'canceled'].includes(String(i.status)))) {
    Object.assign(run, { status: 'ended', endedAt: new Date().toISOString(), endedReason: 'completed' });
  }
  store.touch(run);
}

function fail(item: Rec, reason: string): void {
  Object.assign(item, { status: 'failed', failedAt: new Date().toISOString(), failureReason: reason.slice(0, 2000) });
}

function missingModel(host: RunHost, plan: Planned, target: Json): string | undefined {
  const resolved = resolveTarget(host.world, target, plan.scenario?.targetOverrides as Json | undefined);
  const members = typeof resolved === 'string' ? [{ model: { provider: 'openai' } }] : resolved.members;
  return noModelReason(host.world, [testerOf(plan.personality ?? {}, ''), ...members], NO_MODEL_REASON);
}

async function play(store: Store, host: RunHost, runId: string, itemId: string, plan: Planned): Promise<void> {
  const item = store.get(ITEMS, itemId);
  const run = store.get('eval/simulation/run', runId);
  if (!item || !run || item.status !== 'queued') return;
  const now = new Date().toISOString();
  Object.assign(item, { status: 'running', startedAt: now });
  if (run.status === 'queued') Object.assign(run, { status: 'running', startedAt: now });
  store.touch(item);
  settle(store, run);
  host.changed();
  const transport = ((run.transport as Json | undefined)?.provider as string | undefined) ?? 'vapi.webchat';
  const outcome = plan.problem
    ? { status: 'failed' as const, failureReason: plan.problem }
    : await runItem(host.world, {
        scenario: plan.scenario as Json,
        personality: plan.personality as Json,
        target: run.target as Json,
        transport,
        label: `simulation ${plan.name ?? plan.simulationId} iteration ${String(item.iterationNumber)}`,
      });
  const current = store.get(ITEMS, itemId);
  if (!current || current.status === 'canceled') return;
  if (outcome.status === 'passed') Object.assign(current, { status: 'passed', completedAt: new Date().toISOString() });
  else fail(current, outcome.failureReason ?? 'failed');
  if (outcome.results) current.results = outcome.results;
  const metadata = { ...((current.metadata as Json | undefined) ?? {}) };
  if (outcome.call) {
    metadata.call = { transcript: outcome.call.transcript, messages: outcome.call.messages, ...(outcome.call.recordingUrl ? { recordingUrl: outcome.call.recordingUrl } : {}) };
    if (outcome.call.callId) current.callId = outcome.call.callId;
  }
  if (outcome.hooks) metadata.hooks = outcome.hooks;
  current.metadata = metadata;
  store.touch(current);
  const latest = store.get('eval/simulation/run', runId);
  if (latest) settle(store, latest);
  host.changed();
}

/** `POST /eval/simulation/run`: makes the items and starts playing them. */
export const createSimulationRun: Handler = (ctx) => {
  const b = ctx.body;
  // The published schema checked the body's fields (target, iterations 1..10); it sets no minimum of simulations, but a run of none has no items.
  check(b, { simulations: { type: 'array', min: 1 } });
  const planned = (b.simulations as Json[]).flatMap((e, i) => planEntry(ctx, e, i));
  const iterations = typeof b.iterations === 'number' && b.iterations > 0 ? Math.floor(b.iterations) : 1;
  const run = createIn(ctx, SIM_RUNS, { ...b, iterations, status: 'queued' });
  run.queuedAt = run.createdAt;
  const store = ctx.store;
  const items = planned.flatMap((p) =>
    Array.from({ length: iterations }, (_, i) =>
      store.insert(ITEMS, {
        runId: run.id,
        simulationId: p.simulationId,
        status: 'queued',
        queuedAt: run.createdAt,
        iterationNumber: i + 1,
        ...(typeof p.scenario?.id === 'string' ? { scenarioId: p.scenario.id } : {}),
        ...(typeof p.personality?.id === 'string' ? { personalityId: p.personality.id } : {}),
        ...(Array.isArray(p.scenario?.hooks) ? { hooks: p.scenario.hooks } : {}),
        ...(b.transport ? { configurations: { transport: b.transport } } : {}),
        metadata: { simulation: { name: p.name ?? null }, ...(p.scenario ? { scenario: { name: p.scenario.name } } : {}), ...(p.personality ? { personality: { name: p.personality.name } } : {}) },
      }),
    ),
  );
  const host = ctx.env.runs;
  let unmodelled = 0;
  for (const [i, item] of items.entries()) {
    const plan = planned[Math.floor(i / iterations)] as Planned;
    // Decided now, so a run without a model has failed before its create answers.
    const noModel = host ? missingModel(host, plan, run.target as Json) : `No model is configured, so nothing was run or judged. ${NO_MODEL_REASON}`;
    if (noModel) {
      unmodelled++;
      fail(item, noModel);
      store.touch(item);
    } else if (host) host.track(host.limiter.run(() => play(store, host, run.id, item.id, plan)));
  }
  const message = unmodelled ? `${unmodelled} of ${items.length} item(s) failed at once: no model is configured` : `Queued ${items.length} item(s); they run on the local platform's model step`;
  settle(store, run);
  const body = { ...run, simulationRunItemIds: items.map((i) => i.id), url: `${ctx.env.url}/eval/simulation/run/${run.id}`, message };
  return { status: 201, body, changed: true };
};

function listSummary(run: Rec): Record<string, unknown> {
  const sims = (run.simulations as Record<string, unknown>[] | undefined) ?? [];
  const ids = sims.map((s) => s.simulationId).filter((x): x is string => typeof x === 'string');
  return { source: { type: 'api', name: 'API', linkable: false, simulationIds: ids }, simulationCount: sims.length };
}

/** `GET /eval/simulation/run` and `GET /eval/simulation/run/{id}`. */
export function simRunRead(kind: 'list' | 'get', query: readonly string[]): Handler {
  const list = compileList(query, 'paginated');
  if (kind === 'get') return (ctx) => ({ status: 200, body: find(ctx, SIM_RUNS) });
  return (ctx) => {
    const page = list(ctx.store.all('eval/simulation/run'), ctx.query) as { results: Rec[] };
    return { status: 200, body: { ...page, results: page.results.map((r) => ({ ...r, summary: listSummary(r) })) } };
  };
}

/** `PATCH /eval/simulation/run/{id}`: cancels a run that has not ended, and its open items. */
export const cancelSimRun: Handler = (ctx) => {
  const run = find(ctx, SIM_RUNS);
  if (run.status === 'ended') return { status: 200, body: run };
  const items = ctx.store.all(ITEMS).filter((i) => i.runId === run.id);
  const now = new Date().toISOString();
  for (const item of items) if (['queued', 'running', 'evaluating'].includes(String(item.status))) ctx.store.touch(Object.assign(item, { status: 'canceled', canceledAt: now }));
  Object.assign(run, { status: 'ended', endedAt: now, endedReason: 'cancelled', itemCounts: countsOf(items) });
  return { status: 200, body: ctx.store.touch(run), changed: true };
};
