// List queries compiled once per operation from its catalogue query names: limits, time
// windows, resource filters, and the two answer kinds (bare array or `{ results, metadata }`).
import type { ListKind } from '../../catalogue/index.js';
import { badRequest } from '../errors.js';
import type { Query } from '../http/io.js';
import type { Rec } from '../store/store.js';

type Test = (rec: Rec) => boolean;
type FilterMaker = (raw: string | string[]) => Test | undefined;

const DIGITS = /^\d+$/;
const TIME_OPS: Record<string, (a: number, b: number) => boolean> = {
  Gt: (a, b) => a > b,
  Lt: (a, b) => a < b,
  Ge: (a, b) => a >= b,
  Le: (a, b) => a <= b,
};
/** Query names that filter on a field other than their own. */
const FIELD_OF: Record<string, string> = {
  customerNumberAny: 'customer.number',
  successEvaluation: 'analysis.successEvaluation',
  assistantName: 'assistant.name',
  squadName: 'squad.name',
};
/** Query names the emulator accepts but does not filter on. */
const IGNORED = new Set(['limit', 'page', 'sortOrder', 'sortBy', 'assistantOverrides', 'customer', 'structuredOutputs', 'score', 'format', 'columns']);

/** A field by dotted path. */
export function pick(rec: Record<string, unknown>, path: string): unknown {
  if (!path.includes('.')) return rec[path];
  let at: unknown = rec;
  for (const key of path.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

function one(name: string, raw: string | string[]): string {
  if (Array.isArray(raw)) throw badRequest(`${name} must be given once`);
  return raw;
}

function all(raw: string | string[]): string[] {
  return Array.isArray(raw) ? raw : raw.split(',');
}

function timeFilter(name: string, field: string, cmp: (a: number, b: number) => boolean): FilterMaker {
  return (raw) => {
    const at = Date.parse(one(name, raw));
    if (Number.isNaN(at)) throw badRequest(`${name} must be a valid ISO 8601 date string`);
    return (rec) => cmp(Date.parse(rec[field] as string), at);
  };
}

function filterFor(name: string): FilterMaker | undefined {
  if (IGNORED.has(name)) return undefined;
  const time = /^(createdAt|updatedAt)(Gt|Lt|Ge|Le)$/.exec(name);
  if (time) return timeFilter(name, time[1] as string, TIME_OPS[time[2] as string] as (a: number, b: number) => boolean);
  if (name === 'costLe' || name === 'costGe') {
    const cmp = name === 'costLe' ? TIME_OPS.Le : TIME_OPS.Ge;
    return (raw) => {
      const n = Number(one(name, raw));
      if (Number.isNaN(n)) throw badRequest(`${name} must be a number`);
      return (rec) => typeof rec.cost === 'number' && (cmp as (a: number, b: number) => boolean)(rec.cost, n);
    };
  }
  if (name === 'search') {
    return (raw) => {
      const needle = one(name, raw).toLowerCase();
      return (rec) =>
        ['name', 'number', 'sipUri'].some((f) =>
          String(rec[f] ?? '')
            .toLowerCase()
            .includes(needle),
        );
    };
  }
  if (name.endsWith('Any')) {
    const field = FIELD_OF[name] ?? name.slice(0, -3);
    return (raw) => {
      const wanted = new Set(all(raw));
      return (rec) => wanted.has(String(pick(rec, field)));
    };
  }
  const field = FIELD_OF[name] ?? name;
  return (raw) => {
    const wanted = one(name, raw);
    return (rec) => String(pick(rec, field)) === wanted;
  };
}

function limitOf(query: Query, min: number): number {
  const raw = query.limit;
  if (raw === undefined) return 100;
  if (Array.isArray(raw) || !DIGITS.test(raw)) throw badRequest('limit must be an integer number');
  const n = Number(raw);
  if (n < min) throw badRequest(`limit must not be less than ${min}`);
  if (n > 1000) throw badRequest('limit must not be greater than 1000');
  return n;
}

/** Runs a list query over a collection's objects (oldest first) and shapes the answer. */
export type ListRunner = (recs: readonly Rec[], query: Query, extra?: Test) => unknown;

/** Compiles the list behaviour of an operation from its query names and list kind. */
export function compileList(queryNames: readonly string[], kind: ListKind): ListRunner {
  const makers = new Map<string, FilterMaker>();
  for (const name of queryNames) {
    const maker = filterFor(name);
    if (maker) makers.set(name, maker);
  }
  const testsOf = (query: Query, extra?: Test): Test[] => {
    const tests: Test[] = extra ? [extra] : [];
    for (const key in query) {
      const test = makers.get(key)?.(query[key] as string | string[]);
      if (test) tests.push(test);
    }
    return tests;
  };
  const passes = (rec: Rec, tests: Test[]): boolean => {
    for (const t of tests) if (!t(rec)) return false;
    return true;
  };
  if (kind === 'plain') {
    return (recs, query, extra) => {
      const limit = limitOf(query, 0);
      const tests = testsOf(query, extra);
      const out: Rec[] = [];
      for (let i = recs.length - 1; i >= 0 && out.length < limit; i--) {
        const rec = recs[i] as Rec;
        if (passes(rec, tests)) out.push(rec);
      }
      return out;
    };
  }
  return (recs, query, extra) => {
    const limit = limitOf(query, 1);
    const rawPage = query.page ?? '1';
    if (Array.isArray(rawPage) || !DIGITS.test(rawPage) || Number(rawPage) < 1) throw badRequest('page must not be less than 1');
    const page = Number(rawPage);
    const sortOrder = query.sortOrder ?? 'DESC';
    if (sortOrder !== 'ASC' && sortOrder !== 'DESC') throw badRequest('sortOrder must be one of the following values: ASC, DESC');
    const tests = testsOf(query, extra);
    let matched = tests.length ? recs.filter((r) => passes(r, tests)) : recs.slice();
    const sortBy = typeof query.sortBy === 'string' && query.sortBy !== 'createdAt' ? query.sortBy : undefined;
    if (sortBy) matched = matched.sort((a, b) => compare(pick(a, sortBy), pick(b, sortBy)));
    if (sortOrder === 'DESC') matched.reverse();
    const totalPages = Math.ceil(matched.length / limit);
    return {
      results: matched.slice((page - 1) * limit, page * limit),
      metadata: { itemsPerPage: limit, totalItems: matched.length, currentPage: page, totalPages, hasNextPage: page < totalPages, sortOrder },
    };
  };
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}
