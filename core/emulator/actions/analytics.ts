// `POST /analytics`: sum, avg, count, min, max (and history) over the stored calls, grouped
// by the requested fields and, with a `step`, by time bucket.
import type { Handler } from '../http/context.js';
import { badRequest } from '../errors.js';
import { pick } from '../resources/lists.js';
import type { Rec } from '../store/store.js';
import { check, problems } from '../resources/validate.js';

const OPERATIONS = ['sum', 'avg', 'count', 'min', 'max', 'history'] as const;
const DAY = 86_400_000;

interface Operation {
  operation: (typeof OPERATIONS)[number];
  column: string;
  alias?: string;
}

interface Query {
  table: 'call' | 'subscription';
  name: string;
  operations: Operation[];
  groupBy?: string[];
  timeRange?: { step?: string; start?: string; end?: string; timezone?: string };
}

function durationSeconds(call: Rec): number | undefined {
  if (typeof call.durationSeconds === 'number') return call.durationSeconds;
  const start = Date.parse(call.startedAt as string);
  const end = Date.parse(call.endedAt as string);
  return Number.isNaN(start) || Number.isNaN(end) ? undefined : (end - start) / 1000;
}

function valueOf(call: Rec, column: string): number | undefined {
  if (column === 'id' || column === 'concurrency') return 1;
  if (column === 'duration') return durationSeconds(call);
  if (column === 'minutesUsed') {
    const s = durationSeconds(call);
    return s === undefined ? undefined : s / 60;
  }
  const v = pick(call, column);
  return typeof v === 'number' ? v : undefined;
}

/** The result key of an operation, e.g. `sumDuration`, `avgCostBreakdownLlm`. */
export function resultKey(op: Operation): string {
  if (op.alias) return op.alias;
  const words = op.column.split('.').map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `${op.operation}${words.join('')}`;
}

function bucket(ms: number, step: string): string {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (step) {
    case 'second':
      return new Date(Math.floor(ms / 1000) * 1000).toISOString();
    case 'minute':
      return new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
    case 'hour':
      return new Date(Math.floor(ms / 3_600_000) * 3_600_000).toISOString();
    case 'day':
      return new Date(Math.floor(ms / DAY) * DAY).toISOString();
    case 'week':
      return new Date(Math.floor(ms / DAY) * DAY - ((d.getUTCDay() + 6) % 7) * DAY).toISOString();
    case 'month':
      return new Date(Date.UTC(y, m, 1)).toISOString();
    case 'quarter':
      return new Date(Date.UTC(y, m - (m % 3), 1)).toISOString();
    default:
      return new Date(Date.UTC(y, 0, 1)).toISOString();
  }
}

function aggregate(op: Operation, calls: Rec[]): unknown {
  const values = calls.map((c) => valueOf(c, op.column)).filter((v): v is number => v !== undefined);
  switch (op.operation) {
    case 'count':
      return values.length;
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'avg':
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    case 'min':
      return values.length ? Math.min(...values) : null;
    case 'max':
      return values.length ? Math.max(...values) : null;
    default:
      return values;
  }
}

function checkQuery(q: Query, i: number): void {
  const found = problems(q as unknown as Record<string, unknown>, {
    table: { type: 'string', required: true, oneOf: ['call', 'subscription'] },
    name: { type: 'string', required: true },
    operations: { type: 'array', required: true, min: 1 },
    groupBy: { type: 'array' },
    timeRange: { type: 'object' },
  }).map((m) => `queries.${i}.${m}`);
  (Array.isArray(q.operations) ? q.operations : []).forEach((op, j) => {
    const opProblems = problems(op as unknown as Record<string, unknown>, {
      operation: { type: 'string', required: true, oneOf: OPERATIONS },
      column: { type: 'string', required: true },
      alias: { type: 'string' },
    });
    found.push(...opProblems.map((m) => `queries.${i}.operations.${j}.${m}`));
  });
  for (const key of ['start', 'end'] as const) {
    const v = q.timeRange?.[key];
    if (v !== undefined && Number.isNaN(Date.parse(v))) found.push(`queries.${i}.timeRange.${key} must be a valid ISO 8601 date string`);
  }
  if (found.length) throw badRequest(found);
}

function run(q: Query, calls: readonly Rec[]): Record<string, unknown> {
  const end = q.timeRange?.end ? Date.parse(q.timeRange.end) : Date.now();
  const start = q.timeRange?.start ? Date.parse(q.timeRange.start) : end - 7 * DAY;
  const step = q.timeRange?.step;
  const timeRange = { ...(step ? { step } : {}), start: new Date(start).toISOString(), end: new Date(end).toISOString(), timezone: q.timeRange?.timezone ?? 'UTC' };
  const rows =
    q.table === 'call'
      ? calls.filter((c) => {
          const at = Date.parse(c.createdAt);
          return at >= start && at <= end;
        })
      : [];
  const groupBy = q.groupBy ?? [];
  const groups = new Map<string, { keys: Record<string, unknown>; calls: Rec[] }>();
  for (const call of rows) {
    const keys: Record<string, unknown> = {};
    if (step) keys.date = bucket(Date.parse(call.createdAt), step);
    for (const field of groupBy) keys[field] = pick(call, field) ?? null;
    const id = JSON.stringify(keys);
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { keys, calls: [] }));
    group.calls.push(call);
  }
  if (groups.size === 0 && groupBy.length === 0 && !step && q.table === 'call') groups.set('{}', { keys: {}, calls: [] });
  const result = [...groups.values()].map(({ keys, calls: members }) => {
    const row: Record<string, unknown> = { ...keys };
    for (const op of q.operations) row[resultKey(op)] = aggregate(op, members);
    return row;
  });
  return { name: q.name, timeRange, result };
}

/** `POST /analytics`: one result per query. */
export const analytics: Handler = (ctx) => {
  check(ctx.body, { queries: { type: 'array', required: true, min: 1 } });
  const queries = ctx.body.queries as Query[];
  queries.forEach((q, i) => {
    if (q === null || typeof q !== 'object') throw badRequest(`queries.${i} must be an object`);
    checkQuery(q, i);
  });
  const calls = ctx.store.all('call');
  return { status: 200, body: queries.map((q) => run(q, calls)) };
};
