// Eval runs and simulation runs. The emulator has no model and no simulated caller yet, so a run
// is a documented canned one: it is queued for QUEUED_MS, runs for RUNNING_MS, then ends with
// every conversation passed; replies come from the emulator's stand-in assistant. Progress is
// worked out from the clock whenever a run is read, so no timers outlive a request.
import { randomUUID } from 'node:crypto';
import type { Ctx, Handler } from '../context.js';
import { createIn, find } from '../crud.js';
import { badRequest, notFound } from '../errors.js';
import { compileList } from '../lists.js';
import type { Rec, Store } from '../store.js';
import { check } from '../validate.js';
import { replyTo } from './chat.js';
import { topLevel } from './place.js';

/** How long a canned run waits in the queue, in ms. */
export const QUEUED_MS = 1000;
/** How long a canned run runs, in ms, before it ends. */
export const RUNNING_MS = 1000;

const EVAL_RUNS = { ...topLevel('eval/run'), idParam: 'id' };
const SIM_RUNS = { ...topLevel('eval/simulation/run'), idParam: 'id' };
const ITEMS = 'eval/simulation/run/item';

type Phase = 'queued' | 'running' | 'ended';
type Message = Record<string, unknown>;

function phaseOf(rec: Rec, now = Date.now()): Phase {
  const age = now - Date.parse(rec.createdAt);
  return age < QUEUED_MS ? 'queued' : age < QUEUED_MS + RUNNING_MS ? 'running' : 'ended';
}

function at(rec: Rec, ms: number): string {
  return new Date(Date.parse(rec.createdAt) + ms).toISOString();
}

/** The canned conversation of a mock: the eval's user turns, each answered by the stand-in assistant. */
export function playMock(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') continue;
    out.push(m);
    if (m.role === 'user') out.push({ role: 'assistant', content: replyTo(typeof m.content === 'string' ? m.content : '') });
  }
  return out;
}

/** Brings an eval run up to date with the clock (fills its results once it has ended). */
function advanceEval(store: Store, run: Rec): Rec {
  if (run.status === 'ended') return run;
  const phase = phaseOf(run);
  if (phase === run.status) return run;
  run.status = phase;
  if (phase === 'ended') {
    const messages = ((run.eval as Record<string, unknown> | undefined)?.messages as Message[] | undefined) ?? [];
    run.results = [{ status: 'pass', messages: playMock(messages), startedAt: run.startedAt, endedAt: run.endedAt }];
  }
  return store.touch(run);
}

/** `POST /eval/run`: queues a canned run of a stored or inline eval against a target. */
export const createEvalRun: Handler = (ctx) => {
  const b = ctx.body;
  let evalDef = b.eval as Record<string, unknown> | undefined;
  if (typeof b.evalId === 'string') {
    evalDef = ctx.store.get('eval', b.evalId);
    if (!evalDef) throw notFound('Eval');
  }
  if (!evalDef) throw badRequest(['evalId or eval must be provided']);
  const { id: _id, orgId: _o, createdAt: _c, updatedAt: _u, ...definition } = evalDef;
  const run = createIn(ctx, EVAL_RUNS, { ...b, eval: definition, status: 'queued', results: [], cost: 0, costs: [], endedReason: 'mockConversation.done' });
  run.startedAt = at(run, QUEUED_MS);
  run.endedAt = at(run, QUEUED_MS + RUNNING_MS);
  return { status: 201, body: run, changed: true };
};

/** `GET /eval/run` and `GET /eval/run/{id}`: runs brought up to date first. */
export function evalRunRead(kind: 'list' | 'get', query: readonly string[]): Handler {
  const list = compileList(query, 'paginated');
  if (kind === 'get') return (ctx) => ({ status: 200, body: advanceEval(ctx.store, find(ctx, EVAL_RUNS)) });
  return (ctx) => {
    for (const run of ctx.store.all('eval/run')) advanceEval(ctx.store, run);
    return { status: 200, body: list(ctx.store.all('eval/run'), ctx.query) };
  };
}

function countsOf(items: readonly Rec[]): Record<string, number> {
  const n = (s: string): number => items.filter((i) => i.status === s).length;
  return { total: items.length, passed: n('passed'), failed: n('failed'), running: n('running') + n('evaluating'), queued: n('queued'), canceled: n('canceled') };
}

/** Brings a simulation run and its items up to date with the clock. */
function advanceSim(store: Store, run: Rec): Rec {
  if (run.status === 'ended') return run;
  const phase = phaseOf(run);
  if (phase === run.status) return run;
  const items = store.all(ITEMS).filter((i) => i.runId === run.id);
  for (const item of items) {
    if (item.status === 'canceled') continue;
    item.status = phase === 'ended' ? 'passed' : phase;
    if (phase !== 'queued') item.startedAt = run.startedAt;
    if (phase === 'ended') {
      item.completedAt = run.endedAt;
      item.results = { evaluations: [], passed: true, transcript: playMock([{ role: 'user', content: 'Hello, I am calling about my booking.' }]) };
    }
    store.touch(item);
  }
  run.status = phase;
  if (phase !== 'queued') run.startedAt = at(run, QUEUED_MS);
  if (phase === 'ended') {
    run.endedAt = at(run, QUEUED_MS + RUNNING_MS);
    run.endedReason = 'completed';
  }
  run.itemCounts = countsOf(items);
  return store.touch(run);
}

/** The simulations a run entry names: one simulation, or every simulation of a suite. */
function simulationIdsOf(ctx: Ctx, entry: Record<string, unknown>): string[] {
  if (entry.type === 'simulationSuite') {
    const suite = ctx.store.get('eval/simulation/suite', String(entry.simulationSuiteId ?? entry.suiteId));
    if (!suite) throw notFound('Simulation suite');
    return (suite.simulationIds as string[] | undefined) ?? [];
  }
  if (entry.type !== 'simulation') throw badRequest(['each entry of simulations must have type simulation or simulationSuite']);
  if (typeof entry.simulationId === 'string') {
    if (!ctx.store.get('eval/simulation', entry.simulationId)) throw notFound('Simulation');
    return [entry.simulationId];
  }
  return [randomUUID()]; // an inline scenario and personality: an ad-hoc simulation
}

/** `POST /eval/simulation/run`: queues a canned run with one item per simulation and iteration. */
export const createSimulationRun: Handler = (ctx) => {
  const b = ctx.body;
  // The published schema checked the body's fields (target, iterations 1..10); it sets no minimum of simulations, but a run of none has no items.
  check(b, { simulations: { type: 'array', min: 1 } });
  const ids = (b.simulations as Record<string, unknown>[]).flatMap((e) => simulationIdsOf(ctx, e));
  const iterations = typeof b.iterations === 'number' && b.iterations > 0 ? Math.floor(b.iterations) : 1;
  const run = createIn(ctx, SIM_RUNS, { ...b, iterations, status: 'queued' });
  run.queuedAt = run.createdAt;
  const items = ids.flatMap((simulationId) => Array.from({ length: iterations }, (_, i) => ctx.store.insert(ITEMS, { runId: run.id, simulationId, status: 'queued', queuedAt: run.createdAt, iterationNumber: i + 1 })));
  run.itemCounts = countsOf(items);
  const body = { ...run, simulationRunItemIds: items.map((i) => i.id), url: `${ctx.env.url}/eval/simulation/run/${run.id}`, message: 'Queued (the local emulator plays a canned run)' };
  return { status: 201, body, changed: true };
};

function listSummary(run: Rec): Record<string, unknown> {
  const sims = (run.simulations as Record<string, unknown>[] | undefined) ?? [];
  const ids = sims.map((s) => s.simulationId).filter((x): x is string => typeof x === 'string');
  return { source: { type: 'api', name: 'API', linkable: false, simulationIds: ids }, simulationCount: sims.length };
}

/** `GET /eval/simulation/run` and `GET /eval/simulation/run/{id}`: runs brought up to date first. */
export function simRunRead(kind: 'list' | 'get', query: readonly string[]): Handler {
  const list = compileList(query, 'paginated');
  if (kind === 'get') return (ctx) => ({ status: 200, body: advanceSim(ctx.store, find(ctx, SIM_RUNS)) });
  return (ctx) => {
    for (const run of ctx.store.all('eval/simulation/run')) advanceSim(ctx.store, run);
    const page = list(ctx.store.all('eval/simulation/run'), ctx.query) as { results: Rec[] };
    return { status: 200, body: { ...page, results: page.results.map((r) => ({ ...r, summary: listSummary(r) })) } };
  };
}

/** `PATCH /eval/simulation/run/{id}`: cancels a run that has not ended, and its open items. */
export const cancelSimRun: Handler = (ctx) => {
  const run = advanceSim(ctx.store, find(ctx, SIM_RUNS));
  if (run.status === 'ended') return { status: 200, body: run };
  const items = ctx.store.all(ITEMS).filter((i) => i.runId === run.id);
  const now = new Date().toISOString();
  for (const item of items) if (item.status === 'queued' || item.status === 'running') Object.assign(item, { status: 'canceled', canceledAt: now });
  Object.assign(run, { status: 'ended', endedAt: now, endedReason: 'cancelled', itemCounts: countsOf(items) });
  return { status: 200, body: ctx.store.touch(run), changed: true };
};

function itemOf(ctx: Ctx): Rec {
  const run = advanceSim(ctx.store, find(ctx, SIM_RUNS));
  const item = ctx.store.get(ITEMS, ctx.params.itemId as string);
  if (!item || item.runId !== run.id) throw notFound('Simulation run item');
  return item;
}

/** `GET /eval/simulation/run/{id}/item`: the run's items (a bare array). */
export function listItems(query: readonly string[]): Handler {
  const list = compileList(query, 'plain');
  return (ctx) => {
    const run = advanceSim(ctx.store, find(ctx, SIM_RUNS));
    return { status: 200, body: list(ctx.store.all(ITEMS), ctx.query, (r) => r.runId === run.id) };
  };
}

/** `GET /eval/simulation/run/{id}/item/{itemId}`. */
export const getItem: Handler = (ctx) => ({ status: 200, body: itemOf(ctx) });

/** `PATCH /eval/simulation/run/{id}/item/{itemId}`: cancels one item that has not finished. */
export const cancelItem: Handler = (ctx) => {
  const item = itemOf(ctx);
  if (item.status === 'queued' || item.status === 'running') Object.assign(item, { status: 'canceled', canceledAt: new Date().toISOString() });
  return { status: 200, body: ctx.store.touch(item), changed: true };
};

/** `POST .../item/{itemId}/generate`: canned improvement suggestions, kept on the item with `persist=true`. */
export const suggest: Handler = (ctx) => {
  const item = itemOf(ctx);
  const improvementSuggestions = {
    analysis: 'Canned analysis from the local emulator (no model was called).',
    systemPromptSuggestions: [{ issue: 'The caller was not asked for their name.', suggestion: 'Confirm the caller\u2019s name before looking up the booking.' }],
    toolSuggestions: [],
    scenarioSuggestions: [],
  };
  if (ctx.query.persist === 'true') {
    item.improvementSuggestions = improvementSuggestions;
    ctx.store.touch(item);
  }
  return { status: 201, body: { simulationRunItemId: item.id, improvementSuggestions }, changed: ctx.query.persist === 'true' };
};

/** `GET /eval/simulation/concurrency`: a fixed limit of 10 and the items running now. */
export const concurrency: Handler = (ctx) => {
  for (const run of ctx.store.all('eval/simulation/run')) advanceSim(ctx.store, run);
  const active = ctx.store.all(ITEMS).filter((i) => i.status === 'running').length;
  const now = new Date().toISOString();
  return { status: 200, body: { orgId: ctx.store.orgId, concurrencyLimit: 10, activeSimulations: active, availableToStart: Math.max(0, 10 - active), createdAt: now, updatedAt: now, isDefault: true } };
};

/** `POST /eval/simulation/scenario/generate`: three canned scenarios (happy path, edge case, failure). */
export const generateScenarios: Handler = (ctx) => {
  const assistantId = ctx.body.assistantId;
  const name = typeof assistantId === 'string' ? String(ctx.store.get('assistant', assistantId)?.name ?? 'the assistant') : 'the assistant';
  const scenarios = [
    { name: 'Books an appointment', category: 'happy_path', instructions: `Call ${name} and book a slot next Tuesday morning.`, reasoning: 'The main task callers bring.' },
    { name: 'Changes their mind', category: 'edge_case', instructions: `Ask ${name} for Tuesday, then switch to Friday halfway through.`, reasoning: 'Checks that corrections are taken.' },
    { name: 'Asks for a human', category: 'failure_mode', instructions: `Refuse to talk to ${name} and insist on a person.`, reasoning: 'Checks the hand-off path.' },
  ];
  return { status: 201, body: { scenarios, coverageNotes: 'Canned scenarios from the local emulator (no model was called).' } };
};
