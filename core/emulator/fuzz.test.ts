// Property-based fuzzing of every operation that takes a JSON body, from the derived published
// schemas: bodies that follow the schema and bodies broken the ways developers break them, plus
// random queries on every list. Whatever comes in: no 5xx, the emulator keeps serving, a refused
// request stores nothing, and every 400 names the field it refuses. `npm run fuzz` runs longer
// (FUZZ_RUNS cases per operation and kind; a few thousand cases in all by default).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, flatten } from '../catalogue/index.js';
import { startEmulator } from './index.js';
import type { Emulator } from './index.js';
import { brokenFor, operations, resolveRef, valueFor } from './fuzz.test-support.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 14);
const H = { authorization: 'Bearer k', 'content-type': 'application/json' };
let emu: Emulator;

beforeAll(async () => {
  // Calls a valid body places run at high speed, so they end quickly and stay out of the way.
  emu = await startEmulator({ seed: true, speed: 1000 });
});
afterAll(() => emu.close());

/** The collection a path's `{id}` names (`/test-suite/{testSuiteId}/test/{id}` -> `test-suite/test`). */
function collectionOf(path: string): string {
  return path
    .split('/')
    .filter((p) => p && !p.startsWith('{') && p !== 'v2')
    .join('/');
}

/** A concrete path: ids of stored objects where there are some, else random ones. */
function concrete(path: string, random: string): string {
  const all = emu.states.export().collections as Record<string, { id: string }[]>;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'provider') return '11labs';
    const prefix = path.slice(0, path.indexOf(`{${name}}`));
    const recs = all[collectionOf(prefix)] ?? [];
    return recs[0]?.id ?? random;
  });
}

/**
 * Every id in every collection, the calls, the call each log line is about, and the object at a
 * path when it names one. Calls placed by earlier cases keep logging while they run: a log line
 * about a call that existed before a request is that call's, not the request's.
 */
function state(path: string): { ids: Set<string>; calls: Set<string>; logOf: Map<string, string>; target: string | undefined } {
  const all = emu.states.export().collections as Record<string, { id: string; callId?: string }[]>;
  const ids = new Set(Object.values(all).flatMap((recs) => recs.map((r) => r.id)));
  const calls = new Set((all.call ?? []).map((r) => r.id));
  const logOf = new Map((all.log ?? []).filter((r) => typeof r.callId === 'string').map((r) => [r.id, r.callId as string]));
  const id = path.split('/').at(-1) ?? '';
  const target = Object.entries(all)
    .filter(([name]) => name !== 'call')
    .flatMap(([, recs]) => recs)
    .find((r) => r.id === id);
  return { ids, calls, logOf, target: target ? JSON.stringify(target) : undefined };
}

/** Every key in a JSON value, at any depth. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k.trim()) out.add(k);
      keysOf(v, out);
    }
  return out;
}

/**
 * A 400's message names a field: each line starts with the field's path (`name must be a string`,
 * `messages.0.property x should not exist`), mentions a field the request sent, or is about the body
 * as a whole; `fields` are the names the operation knows (a missing one is named, not sent).
 */
function namesAField(message: unknown, sent: unknown, fields: readonly string[] = []): boolean {
  const lines = Array.isArray(message) ? message : [message];
  const keys = [...keysOf(sent), ...fields];
  const named = (m: string): boolean =>
    /^(\S+\.)?property .* should not exist$/.test(m) || /^[\w$.:[\]-]+ (must|should|is|has) /.test(m) || /^Request body /.test(m) || keys.some((k) => m.toLowerCase().includes(k.toLowerCase()));
  return lines.length > 0 && lines.every((m) => typeof m === 'string' && named(m));
}

async function send(method: string, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${emu.url}${path}`, { method, headers: H, body: JSON.stringify(body) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Non-JSON answers (a CSV export) carry no error message to check.
  }
  return { status: res.status, json };
}

async function checkOne(method: string, template: string, body: unknown, random: string, fields: readonly string[]): Promise<void> {
  const path = concrete(template, random);
  const before = state(path);
  const { status, json } = await send(method, path, body);
  const where = `${method} ${path} ${JSON.stringify(body).slice(0, 400)} -> ${status} ${JSON.stringify(json).slice(0, 300)}`;
  expect(status, where).toBeLessThan(500);
  if (status === 400) expect(namesAField(json.message, body, fields), where).toBe(true);
  if (status >= 400) {
    const after = state(path);
    expect(
      [...after.ids].filter((id) => !before.ids.has(id) && !before.calls.has(after.logOf.get(id) ?? '')),
      `stored from a refused request: ${where}`,
    ).toEqual([]);
    expect(after.target, `changed by a refused request: ${where}`).toBe(before.target);
  }
}

const bodied = Object.entries(operations)
  .filter(([, op]) => op.request && !op.multipart)
  .map(([key, op]) => ({ method: key.split(' ')[0] as string, path: key.split(' ')[1] as string, schema: op.request as Record<string, unknown> }));

describe('fuzzing every operation with a JSON body, from the published schemas', () => {
  it.each(bodied)('$method $path', async ({ method, path, schema }) => {
    const fields = Object.keys((resolveRef(schema).properties ?? {}) as object);
    const property = (body: fc.Arbitrary<unknown>): Promise<void> =>
      fc.assert(
        fc.asyncProperty(body, fc.uuid(), (b, id) => checkOne(method, path, b, id, fields)),
        { numRuns: RUNS },
      );
    await property(valueFor(schema));
    await property(brokenFor(schema));
  });
});

const lists = flatten(catalogue).filter(({ op }) => op.method === 'GET' && op.query.length > 0 && !op.path.includes('{'));
const queryValue = fc.oneof(fc.string({ maxLength: 8 }), fc.integer().map(String), fc.constant('2024-13-45T99:00:00Z'), fc.constant('-1'), fc.constant(''), fc.constant('1e999'));

describe('fuzzing the queries of every list', () => {
  it.each(lists.map(({ op }) => ({ path: op.path, query: op.query as readonly string[] })))('GET $path', async ({ path, query }) => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...query, 'unknownParam'), queryValue, { maxKeys: 3 }), async (params) => {
        const qs = new URLSearchParams(params).toString();
        const res = await fetch(`${emu.url}${path}?${qs}`, { headers: H });
        const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
        const where = `GET ${path}?${qs} -> ${res.status} ${JSON.stringify(json).slice(0, 300)}`;
        expect(res.status, where).toBeLessThan(500);
        if (res.status === 400) expect(namesAField(json.message, params, query), where).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('still serves after everything above', async () => {
    const res = await fetch(`${emu.url}/assistant?limit=1`, { headers: H });
    expect(res.status).toBe(200);
  });
});
