// A simulation's evaluations: the value at a path of an extracted structured output compared with
// the expected one. Only primitive values are compared; anything else is an error, never a pass.
import type { Json } from '../messages/index.js';
import { isObject } from '../json.js';

/** The comparators the platform publishes. */
export const COMPARATORS = ['=', '!=', '>', '<', '>=', '<='] as const;
/** One of COMPARATORS. */
export type Comparator = (typeof COMPARATORS)[number];

/** A primitive value an evaluation compares. */
export type Primitive = string | number | boolean;

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** The keys of a path (`outcome`, `booking.day`, `$.booking.day`, `items[0].name`). */
export function pathKeys(path: string | undefined): string[] {
  if (!path) return [];
  return path
    .replace(/^\$\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((k): k is string => Boolean(k));
}

/** The sub-schema at a path of a JSON Schema; undefined when the schema has no such place. */
export function schemaAt(schema: Json | undefined, path: string | undefined): Json | undefined {
  let node = schema;
  for (const key of pathKeys(path)) {
    if (!node) return undefined;
    if (node.type === 'array' && /^\d+$/.test(key)) node = isObject(node.items) ? node.items : undefined;
    else node = isObject(node.properties) && isObject((node.properties as Json)[key]) ? ((node.properties as Json)[key] as Json) : undefined;
  }
  return node;
}

/** The value at a path of an extracted value (undefined when absent). */
export function valueAt(value: unknown, path: string | undefined): unknown {
  let node = value;
  for (const key of pathKeys(path)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The primitive type a schema describes (`integer` counts as `number`), or undefined for objects, arrays and unknowns. */
export function primitiveType(schema: Json | undefined): 'string' | 'number' | 'boolean' | undefined {
  if (!schema) return undefined;
  const t = schema.type;
  if (typeof t === 'string' && PRIMITIVE_TYPES.has(t)) return t === 'integer' ? 'number' : (t as 'string' | 'number' | 'boolean');
  if (t === undefined && Array.isArray(schema.enum) && schema.enum.length && schema.enum.every((e) => ['string', 'number', 'boolean'].includes(typeof e))) {
    const kinds = new Set(schema.enum.map((e) => typeof e));
    return kinds.size === 1 ? ([...kinds][0] as 'string' | 'number' | 'boolean') : undefined;
  }
  return undefined;
}

/** Why an evaluation cannot be judged before anything runs (comparator on a non-primitive, ...); undefined when it can. */
export function cannotCompare(schema: Json | undefined, path: string | undefined, comparator: unknown, expected: unknown): string | undefined {
  if (!COMPARATORS.includes(comparator as Comparator)) return `unknown comparator ${JSON.stringify(comparator)} (use one of ${COMPARATORS.join(' ')})`;
  const at = schemaAt(schema, path);
  const where = path ? `the path "${path}" of the structured output` : 'the structured output';
  if (!at) return `${where} is not in its schema`;
  const type = primitiveType(at);
  if (!type) return `${where} is ${String(at.type ?? 'untyped')}, not a string, number or boolean: comparators work on primitive values only${path ? '' : ' (name a field with `path`)'}`;
  if (!['string', 'number', 'boolean'].includes(typeof expected)) return `the expected value ${JSON.stringify(expected)} is not a string, number or boolean`;
  if (comparator !== '=' && comparator !== '!=' && (type !== 'number' || typeof expected !== 'number')) return `"${String(comparator)}" compares numbers, and ${where} is a ${type}`;
  return undefined;
}

function coerce(value: unknown, like: Primitive): unknown {
  if (typeof like === 'number' && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (typeof like === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** Compares an extracted value with the expected one; `error` when the value is not a comparable primitive. */
export function compare(extracted: unknown, comparator: Comparator, expected: Primitive): { passed: boolean; error?: string } {
  const value = coerce(extracted, expected);
  if (value === undefined || value === null) return { passed: false, error: 'nothing was extracted' };
  if (typeof value !== typeof expected) return { passed: false, error: `the extracted value ${JSON.stringify(extracted)} is not a ${typeof expected}` };
  switch (comparator) {
    case '=':
      return { passed: value === expected };
    case '!=':
      return { passed: value !== expected };
    case '>':
      return { passed: (value as number) > (expected as number) };
    case '<':
      return { passed: (value as number) < (expected as number) };
    case '>=':
      return { passed: (value as number) >= (expected as number) };
    case '<=':
      return { passed: (value as number) <= (expected as number) };
  }
}
