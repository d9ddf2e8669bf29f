// A quick check of a body's shape against the derived request schemas, without compiling them:
// unknown fields, missing required ones, wrong JSON types and values outside an enum, in the
// platform's words. It reports only what no form of a union would accept, so it never refuses a
// body the platform takes; `voice plan` runs it on every file (compiling the full validator would
// cost a plan or apply of many files more than the check is worth).
import { formsOf } from './fields.js';
import type { SchemaError } from './validate.js';

type Schema = Record<string, unknown>;

const ARTICLE: Record<string, string> = { string: 'a string', number: 'a number', integer: 'an integer number', boolean: 'a boolean value', array: 'an array', object: 'an object' };

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

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

const at = (path: string, key: string | number): string => (path ? `${path}.${key}` : String(key));

/** Problems of `data` against `schema` that no form of it would accept (empty when it may fit). */
export function shapeProblems(schema: unknown, comps: Readonly<Record<string, Schema>>, data: unknown, path = ''): SchemaError[] {
  const forms = formsOf(schema, comps, data);
  if (!forms.length || data === null) return [];
  const typed = forms.filter((f) => typeFits(f.type, data));
  if (!typed.length) {
    const first = forms.map((f) => (Array.isArray(f.type) ? f.type[0] : f.type)).find((t) => typeof t === 'string') as string | undefined;
    return [{ path, message: `${path || 'the body'} must be ${ARTICLE[first ?? ''] ?? first ?? 'something else'}` }];
  }
  const enums = typed.map((f) => (Array.isArray(f.enum) ? f.enum : f.const !== undefined ? [f.const] : undefined));
  if (enums.every((e) => e !== undefined) && !enums.some((e) => e?.includes(data))) {
    const allowed = [...new Set(enums.flat().map(String))];
    return [{ path, message: `${path} must be one of the following values: ${allowed.join(', ')}`, rule: 'one-of', allowed }];
  }
  if (Array.isArray(data)) {
    const items = typed.map((f) => f.items).filter((s) => s !== undefined);
    if (items.length !== typed.length || !items.length) return [];
    const each = items.length === 1 ? items[0] : { anyOf: items };
    return data.flatMap((item, i) => shapeProblems(each, comps, item, at(path, i)));
  }
  if (!isObject(data)) return [];
  const objects = typed.filter((f) => isObject(f.properties));
  if (objects.length !== typed.length || !objects.length) return [];
  const problems: SchemaError[] = [];
  const required = objects.map((f) => (Array.isArray(f.required) ? (f.required as string[]) : []));
  for (const key of required[0] ?? []) {
    if (required.every((r) => r.includes(key)) && (data[key] === undefined || data[key] === null || data[key] === ''))
      problems.push({ path: at(path, key), message: `${at(path, key)} should not be empty`, rule: 'required' });
  }
  for (const [key, value] of Object.entries(data)) {
    const holders = objects.map((f) => (f.properties as Schema)[key]).filter((s) => s !== undefined);
    if (holders.length) problems.push(...shapeProblems(holders.length === 1 ? holders[0] : { anyOf: holders }, comps, value, at(path, key)));
    else if (objects.every((f) => f.additionalProperties === false))
      problems.push({ path: at(path, key), message: `${path ? `${path}.` : ''}property ${key} should not exist`, rule: 'unknown-field' });
  }
  return problems;
}
