// The JSON body of a catalogue command from `-f`, `--set` and `--unset`. Values are typed and
// checked by the request schema. An update without a file that names a field inside an object
// reads the resource first and sends each top-level field it touches whole: the platform's PATCH
// replaces what it is given (a nested object must be complete, an array is replaced), so
// `--set model.temperature=0.2` keeps the model's provider and the rest of it.
import type { Entry } from '#core/catalogue/index';
import { catalogue, flatten } from '#core/catalogue/index';
import { isObject } from '#core/json';
import type { Client } from 'voice-agent-core/client';
import { readJsonFile, setPath, splitAssignment } from './body.js';
import { usageError } from './errors.js';
import { checkUnsetPath, fieldLookupOf, typedSetValue } from './typed-sets.js';

type Obj = Record<string, unknown>;

/** What the body comes from. */
export interface BodyInput {
  file?: string;
  set?: string[];
  unset?: string[];
}

function pathOf(key: string, flag: string): string[] {
  const keys = key.split('.');
  if (keys.some((k) => k === '' || k === '__proto__' || k === 'constructor' || k === 'prototype')) throw usageError(`Bad ${flag} path "${key}"`);
  return keys;
}

/** The `get` of the resource an update names, when there is one with the same path values. */
function getEntryOf(entry: Entry): Entry | undefined {
  return flatten(catalogue).find((e) => e.action === 'get' && e.op.path === entry.op.path && e.op.method === 'GET');
}

/**
 * Removes `a.b.c` (numeric segments index arrays) from the draft; a top-level field is sent as
 * null, which takes it out (as `voice apply` sends removals).
 */
function unsetPath(target: Obj, keys: readonly string[]): void {
  let node: unknown = target;
  for (const k of keys.slice(0, -1)) node = isObject(node) || Array.isArray(node) ? (node as Obj)[k] : undefined;
  const last = keys[keys.length - 1] as string;
  if (Array.isArray(node) && /^\d+$/.test(last)) node.splice(Number(last), 1);
  else if (isObject(node) && keys.length === 1) node[last] = null;
  else if (isObject(node)) delete node[last];
}

/** Builds the body of a JSON-body operation; `client` reads the current resource for an update. */
export async function buildOpBody(entry: Entry, pathValues: readonly string[], input: BodyInput, client: () => Client): Promise<unknown> {
  const sets = input.set ?? [];
  const unsets = input.unset ?? [];
  let body: unknown = input.file === undefined ? {} : await readJsonFile(input.file);
  if (sets.length === 0 && unsets.length === 0) return body;
  if (!isObject(body)) throw usageError(`--set needs the body to be a JSON object, but ${input.file === '-' ? 'stdin' : input.file} holds ${Array.isArray(body) ? 'an array' : typeof body}`);
  body = structuredClone(body) as Obj;
  const lookup = await fieldLookupOf(entry.op.method, entry.op.path);
  // Only a field inside an object needs the rest of that object: `--set name=x` reads nothing.
  const nested = [...sets.map((raw) => splitAssignment(raw, '--set')[0]), ...unsets].some((k) => k.includes('.'));
  const getEntry = input.file === undefined && entry.action === 'update' && nested ? getEntryOf(entry) : undefined;
  // The resource as it is now, read only when an update names fields inside objects without a file.
  const current: Obj = getEntry ? ((await client().invoke(getEntry.op, [...pathValues], undefined)) as Obj) : {};
  const draft = body as Obj;
  const touch = (top: string): void => {
    if (getEntry && !(top in draft) && current[top] !== undefined) draft[top] = structuredClone(current[top]);
  };
  for (const raw of sets) {
    const [key, text] = splitAssignment(raw, '--set');
    const keys = pathOf(key, '--set');
    touch(keys[0] as string);
    // The field is looked up in the body as it will be, so a model's provider picks its form.
    const value = typedSetValue(lookup, keys, text, { ...current, ...draft });
    setPath(draft, key, value);
  }
  for (const key of unsets) {
    const keys = pathOf(key, '--unset');
    checkUnsetPath(lookup, keys, { ...current, ...draft });
    touch(keys[0] as string);
    unsetPath(draft, keys);
  }
  return draft;
}
