// What the derived request schemas say about one field of a body, by its dotted path: whether it
// is known, its JSON types and allowed values, and the names known beside it (for "did you mean").
// Unions are narrowed by the tag the data already holds (a model's `provider`), else merged.
import { loadSchemaData } from './data.js';

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

function isObject(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The forms a schema takes once references are followed and unions opened (narrowed by the data's tags). */
export function formsOf(schema: unknown, comps: Readonly<Record<string, Schema>>, data: unknown, seen = 0): Schema[] {
  if (!isObject(schema) || seen > 20) return [];
  if (typeof schema.$ref === 'string') return formsOf(comps[schema.$ref], comps, data, seen + 1);
  const union = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    const all = union.flatMap((s) => formsOf(s, comps, data, seen + 1));
    // A form whose tag (an enum or const property) disagrees with the data's value is not this one.
    const fits = all.filter(
      (f) =>
        !isObject(data) ||
        Object.entries((f.properties ?? {}) as Record<string, Schema>).every(([k, p]) => {
          const allowed = p.const !== undefined ? [p.const] : Array.isArray(p.enum) && p.enum.length === 1 ? p.enum : undefined;
          return !allowed || data[k] === undefined || allowed.includes(data[k]);
        }),
    );
    return fits.length ? fits : all;
  }
  return [schema];
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
