// Simulation run items (read, cancel), improvement suggestions, the org's simulation concurrency
// and scenario generation. Suggestions and generated scenarios are canned and say so.
import type { Ctx, Handler } from '../http/context.js';
import { find } from '../resources/crud.js';
import { notFound } from '../errors.js';
import { compileList } from '../resources/lists.js';
import { DEFAULT_SIMULATION_CONCURRENCY } from './runs.js';
import type { Rec } from '../store/store.js';
import { topLevel } from './place.js';

const SIM_RUNS = { ...topLevel('eval/simulation/run'), idParam: 'id' };
const ITEMS = 'eval/simulation/run/item';

function itemOf(ctx: Ctx): Rec {
  const run = find(ctx, SIM_RUNS);
  const item = ctx.store.get(ITEMS, ctx.params.itemId as string);
  if (!item || item.runId !== run.id) throw notFound('Simulation run item');
  return item;
}

/** `GET /eval/simulation/run/{id}/item`: the run's items (a bare array). */
export function listItems(query: readonly string[]): Handler {
  const list = compileList(query, 'plain');
  return (ctx) => {
    const run = find(ctx, SIM_RUNS);
    return { status: 200, body: list(ctx.store.all(ITEMS), ctx.query, (r) => r.runId === run.id) };
  };
}

/** `GET /eval/simulation/run/{id}/item/{itemId}`. */
export const getItem: Handler = (ctx) => ({ status: 200, body: itemOf(ctx) });

/** `PATCH /eval/simulation/run/{id}/item/{itemId}`: cancels one item that has not finished. */
export const cancelItem: Handler = (ctx) => {
  const item = itemOf(ctx);
  if (['queued', 'running', 'evaluating'].includes(String(item.status))) Object.assign(item, { status: 'canceled', canceledAt: new Date().toISOString() });
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

/** `GET /eval/simulation/concurrency`: the org's limit and the items running now. */
export const concurrency: Handler = (ctx) => {
  const limit = ctx.env.runs?.limiter.size ?? DEFAULT_SIMULATION_CONCURRENCY;
  const active = ctx.store.all(ITEMS).filter((i) => i.status === 'running' || i.status === 'evaluating').length;
  const now = new Date().toISOString();
  return {
    status: 200,
    body: {
      orgId: ctx.store.orgId,
      concurrencyLimit: limit,
      activeSimulations: active,
      availableToStart: Math.max(0, limit - active),
      createdAt: now,
      updatedAt: now,
      isDefault: limit === DEFAULT_SIMULATION_CONCURRENCY,
    },
  };
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
