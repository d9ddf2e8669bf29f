// What the derived request schemas say about one field of a body, by its dotted path: whether it
// is known, its JSON types and allowed values, and the names known beside it (for "did you mean").
// Unions are narrowed by the tag the data already holds (a model's `provider`), else merged.
import { loadSchemaData } from './data.js';
import { isObject } from '../json.js';

type Schema = Record<string, unknown>;

/** What a dotted path leads to in a request schema. */
export type FieldInfo =
  | {
      /** The path is a field the schema publishes (or lies inside an object open to any field). */
      known: true;
      /** The JSON types the field takes (empty when the schema does not say). */
      types: string[];
      /** The only values allowed, when every form of the field is an enum. */
      values?: string[];
    }
  | {
      /** The segment `at` (index in the path) names no field of the object it is in. */
      known: false;
      /** Index of the unknown segment. */
      at: number;
      /** The fields the object there publishes. */
      names: string[];
    };

/** A property whose single allowed value tells a union's forms apart (a model's `provider`). */
type Tag = readonly [key: string, allowed: readonly unknown[]];

/** A schema's forms with references followed and unions opened, each with its tags. */
interface Flat {
  forms: Schema[];
  tags: Tag[][];
  /** Every tag key of the forms. */
  keys: string[];
  /** The forms left for data with these tag values (keyed by the values, when all are plain). */
  narrowed: Map<unknown, readonly Schema[]>;
}

// Flattening is pure in (schema, comps), and a plan checks every file against the same few
// unions (a model's twenty-odd providers for each of 200 assistants): each is opened once, and
// narrowed once per set of tag values.
const flattened = new WeakMap<object, WeakMap<object, Flat>>();
const NONE: Flat = { forms: [], tags: [], keys: [], narrowed: new Map() };

function tagsOf(form: Schema): Tag[] {
  const tags: Tag[] = [];
  for (const [k, p] of Object.entries((form.properties ?? {}) as Record<string, Schema>)) {
    if (!isObject(p)) continue;
    const allowed = p.const !== undefined ? [p.const] : Array.isArray(p.enum) && p.enum.length === 1 ? p.enum : undefined;
    if (allowed) tags.push([k, allowed]);
  }
  return tags;
}

function flat(forms: Schema[], tags: Tag[][]): Flat {
  return { forms, tags, keys: [...new Set(tags.flat().map(([k]) => k))], narrowed: new Map() };
}

function flatten(schema: unknown, comps: Readonly<Record<string, Schema>>, cache: WeakMap<object, Flat>, open: Set<object>): Flat {
  if (!isObject(schema) || open.has(schema)) return NONE;
  const known = cache.get(schema);
  if (known) return known;
  open.add(schema);
  let found: Flat;
  if (typeof schema.$ref === 'string') found = flatten(comps[schema.$ref], comps, cache, open);
  else {
    const union = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(union)) {
      const parts = union.map((s) => flatten(s, comps, cache, open));
      found = flat(
        parts.flatMap((f) => f.forms),
        parts.flatMap((f) => f.tags),
      );
    } else found = flat([schema], [tagsOf(schema)]);
  }
  open.delete(schema);
  cache.set(schema, found);
  return found;
}

function narrow({ forms, tags }: Flat, data: Schema): readonly Schema[] {
  // A form whose tag (an enum or const property) disagrees with the data's value is not this one.
  const fits = forms.filter((_, i) => (tags[i] as Tag[]).every(([k, allowed]) => data[k] === undefined || allowed.includes(data[k])));
  return fits.length ? fits : forms;
}

/** The forms a schema takes once references are followed and unions opened (narrowed by the data's tags). */
export function formsOf(schema: unknown, comps: Readonly<Record<string, Schema>>, data: unknown): readonly Schema[] {
  let cache = flattened.get(comps);
  if (!cache) flattened.set(comps, (cache = new WeakMap()));
  const found = (isObject(schema) && cache.get(schema)) || flatten(schema, comps, cache, new Set());
  if (found.forms.length < 2 || !isObject(data)) return found.forms;
  // One tag (a provider) keys by its value; several by their values joined.
  let key: unknown = found.keys.length === 1 ? data[found.keys[0] as string] : '';
  if (key !== null && typeof key === 'object') return narrow(found, data);
  if (found.keys.length > 1) {
    for (const k of found.keys) {
      const v = data[k];
      if (v !== null && typeof v === 'object') return narrow(found, data);
      key += `${typeof v}:${String(v)}\u0000`;
    }
  }
  let forms = found.narrowed.get(key);
  if (!forms) found.narrowed.set(key, (forms = narrow(found, data)));
  return forms;
}

/** Looks up `path` (dotted; numeric segments index arrays) in `schema`, narrowing unions by `data`. */
export function fieldIn(schema: unknown, comps: Readonly<Record<string, Schema>>, path: readonly string[], data: unknown): FieldInfo {
  let here = formsOf(schema, comps, data);
  let value: unknown = data;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i] as string;
    const next: unknown[] = [];
    let open = false;
    const names = new Set<string>();
    for (const f of here) {
      if (/^\d+$/.test(seg) && f.items !== undefined) next.push(f.items);
      const props = f.properties as Record<string, unknown> | undefined;
      if (props) Object.keys(props).forEach((n) => names.add(n));
      if (props && seg in props) next.push(props[seg]);
      else if (f.additionalProperties !== false && (f.type === 'object' || props === undefined) && f.items === undefined && f.enum === undefined && (f.type === undefined || f.type === 'object'))
        open = true;
    }
    value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[seg] : undefined;
    if (next.length === 0) return open ? { known: true, types: [] } : { known: false, at: i, names: [...names].sort() };
    here = next.flatMap((s) => formsOf(s, comps, value));
  }
  const types = [...new Set(here.flatMap((f) => (Array.isArray(f.type) ? f.type : f.type ? [f.type] : f.properties ? ['object'] : [])).map(String))];
  const enums = here.map((f) => (Array.isArray(f.enum) ? f.enum.map(String) : f.const !== undefined ? [String(f.const)] : undefined));
  const values = here.length && enums.every((e) => e !== undefined) ? [...new Set(enums.flat() as string[])] : undefined;
  return values ? { known: true, types, values } : { known: true, types };
}

/** The request schema of `METHOD path-template` and the components, loaded once. */
export async function requestSchemaOf(method: string, pathTemplate: string): Promise<{ schema: unknown; comps: Readonly<Record<string, Schema>> } | undefined> {
  const { operations, components } = await loadSchemaData();
  const schema = operations[`${method.toUpperCase()} ${pathTemplate}`]?.request;
  return schema ? { schema, comps: components } : undefined;
}
