// Create, list, get, update (deep merge), replace and delete for any stored resource, with
// nested resources (`/test-suite/{testSuiteId}/run/{id}`) scoped to an existing parent.
import type { Entry } from '../../catalogue/index.js';
import { pathParamNames } from '../../catalogue/index.js';
import { COLLECTIONS, labelOf, specOf } from './collections.js';
import type { Ctx, Handler } from '../http/context.js';
import { notFound } from '../errors.js';
import { compileList } from './lists.js';
import type { Rec, Store } from '../store/store.js';
import { check } from './validate.js';
import { deepMerge } from '../store/merge.js';
import { withoutWriteOnly } from '../../schemas/write-only.js';

export { deepMerge };

/** Where an operation's objects live: the collection and, when nested, its parent. */
export interface Place {
  collection: string;
  label: string;
  parent?: { collection: string; label: string; param: string };
  /** The path value naming the object itself (last one), if any. */
  idParam?: string;
}

/**
 * The collection of a catalogue entry: its resource path without the `v2` prefix, so v2 lists
 * see the same objects, unless the v2 resource is a different object with a collection of its own.
 */
export function collectionOf(entry: Entry): string {
  const own = entry.resource.join('/');
  if (entry.resource[0] !== 'v2' || own in COLLECTIONS) return own;
  return entry.resource.slice(1).join('/');
}

/** Works out where an entry's objects live from its resource words and path template. */
export function placeOf(entry: Entry): Place {
  const collection = collectionOf(entry);
  const names = pathParamNames(entry.op.path);
  const place: Place = { collection, label: labelOf(collection) };
  const words = collection.split('/');
  // Nested when a path value comes before the last word (`/test-suite/{testSuiteId}/run`), not
  // when the only one names the object itself (`/eval/run/{id}`).
  const nested = names.length > 1 || (names.length === 1 && !entry.op.path.endsWith('}'));
  if (words.length > 1 && nested) {
    const parent = words.slice(0, -1).join('/');
    place.parent = { collection: parent, label: labelOf(parent), param: names[0] as string };
    if (names.length > 1) place.idParam = names[names.length - 1];
  } else if (names.length > 0) {
    place.idParam = names[names.length - 1];
  }
  return place;
}

/** Checks the parent of a nested request exists; returns the scope fields of its children. */
function scope(ctx: Ctx, place: Place): Record<string, string> | undefined {
  if (!place.parent) return undefined;
  const parentId = ctx.params[place.parent.param] as string;
  if (!ctx.store.get(place.parent.collection, parentId)) throw notFound(place.parent.label);
  return { [place.parent.param]: parentId };
}

/** Finds the object a request names, within its parent when nested. */
export function find(ctx: Ctx, place: Place): Rec {
  const sc = scope(ctx, place);
  const rec = ctx.store.get(place.collection, ctx.params[place.idParam as string] as string);
  if (!rec) throw notFound(place.label);
  if (sc) for (const key in sc) if (rec[key] !== sc[key]) throw notFound(place.label);
  return rec;
}

/** Stores a new object of a place after checking its body; used by create and by actions. */
export function createIn(ctx: Ctx, place: Place, fields: Record<string, unknown> = ctx.body, id?: string): Rec {
  const spec = specOf(place.collection);
  check(fields, spec.rules);
  const sc = scope(ctx, place);
  return ctx.store.insert(place.collection, { ...sc, ...spec.defaults?.(), ...fields, ...sc }, { scoped: !spec.unscoped, ...(id ? { id } : {}) });
}

/** Deletes an object and, recursively, the objects nested under it. */
export function removeTree(store: Store, children: ReadonlyMap<string, readonly { collection: string; field: string }[]>, collection: string, id: string): Rec | undefined {
  const rec = store.remove(collection, id);
  if (!rec) return undefined;
  for (const child of children.get(collection) ?? []) {
    for (const kid of store.all(child.collection).filter((r) => r[child.field] === id)) removeTree(store, children, child.collection, kid.id);
  }
  return rec;
}

/** The generic handler for an entry's action, or undefined when the action is not CRUD. */
export function crudHandler(entry: Entry, children: ReadonlyMap<string, readonly { collection: string; field: string }[]>): Handler | undefined {
  const handler = crudAction(entry, children);
  // The platform never answers a credential's secrets ("not returned in the API"), stored or
  // inline on an assistant: kept for the calls, never shown.
  if (!handler) return handler;
  return async (ctx) => {
    const out = await handler(ctx);
    return { ...out, body: await withoutWriteOnly(entry.op.method, entry.op.path, out.body) };
  };
}

function crudAction(entry: Entry, children: ReadonlyMap<string, readonly { collection: string; field: string }[]>): Handler | undefined {
  const place = placeOf(entry);
  const spec = specOf(place.collection);
  if (entry.op.list) {
    const run = compileList(entry.op.query, entry.op.list);
    return (ctx) => {
      const sc = scope(ctx, place);
      const within = sc ? (rec: Rec) => Object.keys(sc).every((k) => rec[k] === sc[k]) : undefined;
      return { status: 200, body: run(ctx.store.all(place.collection), ctx.query, within) };
    };
  }
  switch (entry.action) {
    case 'create':
      return (ctx) => ({ status: 201, body: createIn(ctx, place), changed: true });
    case 'get':
      return (ctx) => ({ status: 200, body: find(ctx, place) });
    case 'update':
      return (ctx) => {
        const rec = find(ctx, place);
        check(ctx.body, spec.rules, true);
        // The platform's PATCH replaces each field it names (a nested object must come whole, as
        // its checks of `model.provider` show); null takes a field out.
        for (const [k, v] of Object.entries(withoutScope(ctx.body, place))) {
          if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
          if (v === null) delete rec[k];
          else rec[k] = v;
        }
        return { status: 200, body: ctx.store.touch(rec), changed: true };
      };
    case 'replace':
      return (ctx) => {
        const rec = find(ctx, place);
        check(ctx.body, spec.rules);
        return { status: 200, body: ctx.store.replace(rec, ctx.body), changed: true };
      };
    case 'delete':
      return (ctx) => {
        const rec = find(ctx, place);
        removeTree(ctx.store, children, place.collection, rec.id);
        return { status: 200, body: rec, changed: true };
      };
    default:
      return undefined;
  }
}

const FIXED = ['id', 'orgId', 'createdAt', 'updatedAt'];

/** A patch without the fields the server owns (ids, timestamps, the parent link). */
function withoutScope(body: Record<string, unknown>, place: Place): Record<string, unknown> {
  const fixed = place.parent ? [...FIXED, place.parent.param] : FIXED;
  if (!fixed.some((f) => f in body)) return body;
  const rest = { ...body };
  for (const f of fixed) delete rest[f];
  return rest;
}
