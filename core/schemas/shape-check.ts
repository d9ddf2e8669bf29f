// A quick check of a body's shape against the derived request schemas, without compiling them:
// unknown fields, missing required ones, wrong JSON types and values outside an enum, in the
// platform's words. It reports only what no form of a union would accept, so it never refuses a
// body the platform takes; `voice plan` runs it on every file (compiling the full validator would
// cost a plan or apply of many files more than the check is worth).
import { formsOf } from './fields.js';
import type { SchemaError } from './validate.js';
import { isObject } from '../json.js';

type Schema = Record<string, unknown>;

const ARTICLE: Record<string, string> = { string: 'a string', number: 'a number', integer: 'an integer number', boolean: 'a boolean value', array: 'an array', object: 'an object' };

function typeFits(type: unknown, v: unknown): boolean {
  if (type === undefined) return true;
  if (Array.isArray(type)) return type.some((t) => typeFits(t, v));
  switch (type) {
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    case 'null':
      return v === null;
    default:
      return typeof v === type;
  }
}

/** Problems of `data` against `schema` that no form of it would accept (empty when it may fit). */
export function shapeProblems(schema: unknown, comps: Readonly<Record<string, Schema>>, data: unknown, path = ''): SchemaError[] {
  const out: SchemaError[] = [];
  walk(schema, comps, data, path ? path.split('.') : [], out);
  return out;
}

// The path is a trail of keys shared by the whole walk and joined only for a problem: a plan walks
// every value of every file, and nearly all of them fit.
const joined = (trail: readonly (string | number)[], key?: string | number): string => (key === undefined ? trail.join('.') : [...trail, key].join('.'));

function walk(schema: unknown, comps: Readonly<Record<string, Schema>>, data: unknown, trail: (string | number)[], out: SchemaError[]): void {
  const forms = formsOf(schema, comps, data);
  if (!forms.length || data === null) return;
  let typed: readonly Schema[] = forms;
  for (const f of forms) {
    if (typeFits(f.type, data)) continue;
    typed = forms.filter((g) => typeFits(g.type, data));
    break;
  }
  if (!typed.length) {
    const first = forms.map((f) => (Array.isArray(f.type) ? f.type[0] : f.type)).find((t) => typeof t === 'string') as string | undefined;
    const path = joined(trail);
    out.push({ path, message: `${path || 'the body'} must be ${ARTICLE[first ?? ''] ?? first ?? 'something else'}` });
    return;
  }
  let fixed = true;
  let listed = false;
  for (const f of typed) {
    const values = Array.isArray(f.enum) ? f.enum : f.const !== undefined ? [f.const] : undefined;
    if (!values) fixed = false;
    else if (values.includes(data)) listed = true;
  }
  if (fixed && !listed) {
    const allowed = [...new Set(typed.flatMap((f) => (Array.isArray(f.enum) ? f.enum : [f.const])).map(String))];
    const path = joined(trail);
    out.push({ path, message: `${path} must be one of the following values: ${allowed.join(', ')}`, rule: 'one-of', allowed });
    return;
  }
  if (Array.isArray(data)) {
    const items = typed.map((f) => f.items).filter((s) => s !== undefined);
    if (items.length !== typed.length || !items.length) return;
    const each = items.length === 1 ? items[0] : { anyOf: items };
    for (let i = 0; i < data.length; i++) {
      trail.push(i);
      walk(each, comps, data[i], trail, out);
      trail.pop();
    }
    return;
  }
  if (!isObject(data)) return;
  for (const f of typed) if (!isObject(f.properties)) return;
  const first = typed[0] as Schema;
  for (const key of Array.isArray(first.required) ? (first.required as string[]) : []) {
    if (typed.every((f) => Array.isArray(f.required) && f.required.includes(key)) && (data[key] === undefined || data[key] === null || data[key] === '')) {
      const path = joined(trail, key);
      out.push({ path, message: `${path} should not be empty`, rule: 'required' });
    }
  }
  for (const key of Object.keys(data)) {
    const holder = typed.length === 1 ? (first.properties as Schema)[key] : holderOf(typed, key);
    if (holder !== undefined) {
      trail.push(key);
      walk(holder, comps, data[key], trail, out);
      trail.pop();
    } else if (typed.every((f) => f.additionalProperties === false)) {
      const prefix = joined(trail);
      out.push({ path: joined(trail, key), message: `${prefix ? `${prefix}.` : ''}property ${key} should not exist`, rule: 'unknown-field' });
    }
  }
}

/** The schema of `key` in any of the object forms (a union of them when several have it). */
function holderOf(objects: readonly Schema[], key: string): unknown {
  const holders = objects.map((f) => (f.properties as Schema)[key]).filter((s) => s !== undefined);
  return holders.length === 0 ? undefined : holders.length === 1 ? holders[0] : { anyOf: holders };
}
