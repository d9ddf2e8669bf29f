// Request bodies from the derived published schemas, for property-based tests: values that follow a
// schema (as far as a generator can: patterns and cross-field rules are not attempted) and the ways
// a developer's body goes wrong (a wrong type at some field, a missing required field, an unknown
// field, any JSON at all).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';

type Schema = Record<string, unknown>;

/** The derived components and operations (request schemas by `METHOD /path`). */
export const components = JSON.parse(readFileSync(new URL('../schemas/components.json', import.meta.url), 'utf8')) as Record<string, Schema>;
export const operations = JSON.parse(readFileSync(new URL('../schemas/operations.json', import.meta.url), 'utf8')) as Record<string, { request?: Schema; multipart?: boolean }>;

/** The schema a `$ref` names (followed through chains), or the schema itself. */
export function resolveRef(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; typeof s.$ref === 'string' && i < 10; i++) s = components[s.$ref] ?? {};
  return s;
}

const text = fc.string({ maxLength: 12 });

function stringFor(s: Schema): fc.Arbitrary<unknown> {
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'date-time') return fc.integer({ min: 0, max: 4102444800000 }).map((ms) => new Date(ms).toISOString());
  if (s.format === 'uri' || s.format === 'url') return fc.webUrl({ withQueryParameters: false });
  const max = typeof s.maxLength === 'number' ? Math.min(s.maxLength, 24) : 24;
  const min = typeof s.minLength === 'number' ? Math.min(s.minLength, max) : 0;
  return fc.string({ minLength: min, maxLength: max });
}

function numberFor(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof s.minimum === 'number' ? s.minimum : -1000;
  const max = typeof s.maximum === 'number' ? s.maximum : Math.max(min + 1000, 1000);
  return integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectFor(s: Schema, depth: number): fc.Arbitrary<unknown> {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  // Deep optional fields are left out: the schemas nest assistants in squads in tools, without end.
  const keys = Object.keys(props).filter((k) => required.has(k) || depth > 1);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const k of keys) model[k] = valueFor(props[k] as Schema, depth - 1);
  return fc.record(model, { requiredKeys: keys.filter((k) => required.has(k)) });
}

/** Values shaped by a schema, nesting at most `depth` objects deep. */
export function valueFor(schema: Schema, depth = 3): fc.Arbitrary<unknown> {
  const s = resolveRef(schema);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return fc.constant(s.const);
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (branches?.length) return fc.oneof(...branches.slice(0, 8).map((b) => valueFor(b, depth)));
  if (Array.isArray(s.allOf)) return valueFor(Object.assign({}, ...(s.allOf as Schema[]).map(resolveRef)) as Schema, depth);
  const type = Array.isArray(s.type) ? (s.type[0] as string) : (s.type as string | undefined);
  if (depth < 0) return fc.constant(type === 'array' ? [] : type === 'object' ? {} : null);
  switch (type) {
    case 'string':
      return stringFor(s);
    case 'integer':
      return numberFor(s, true);
    case 'number':
      return numberFor(s, false);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor((s.items ?? {}) as Schema, depth - 1), { maxLength: 2 });
    case 'object':
      return s.properties ? objectFor(s, depth) : fc.dictionary(text, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** A value of another JSON type than the schema's, for "wrong type" mutations. */
const wrongType = fc.oneof(fc.constant(''), fc.constant(42), fc.constant(true), fc.constant([]), fc.constant({}), fc.constant(null), fc.constant('x'.repeat(300)));

/** What a broken body looks like: one field of the wrong type, a required one missing, an unknown one, or any JSON. */
export function brokenFor(schema: Schema): fc.Arbitrary<unknown> {
  const s = resolveRef(schema);
  const valid = valueFor(s);
  const props = Object.keys((s.properties ?? {}) as object);
  const required = (s.required as string[] | undefined) ?? [];
  const asObject = valid.map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}));
  const mutations: fc.Arbitrary<unknown>[] = [
    fc.jsonValue({ maxDepth: 2 }),
    fc
      .tuple(
        asObject,
        fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !props.includes(k) && k !== '__proto__'),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .map(([o, k, v]) => ({ ...o, [k]: v })),
  ];
  if (props.length) mutations.push(fc.tuple(asObject, fc.constantFrom(...props), wrongType).map(([o, k, v]) => ({ ...o, [k]: v })));
  if (required.length)
    mutations.push(
      fc.tuple(asObject, fc.constantFrom(...required)).map(([o, k]) => {
        const copy = { ...o };
        delete copy[k];
        return copy;
      }),
    );
  return fc.oneof(...mutations);
}
