// Fields the platform takes but never gives back: its reference marks them "not returned in the
// API" (a credential's key, a bucket's secret), and the derived schemas carry that as `writeOnly`
// (scripts/derive-schemas-lib.js). The emulator keeps them, since its calls use them, and leaves
// them out of what it answers, as the platform does.
import { isObject } from '../json.js';
import { loadSchemaData } from './data.js';

type Schema = Record<string, unknown>;
type Components = Readonly<Record<string, Schema>>;

/** Whether `value` can be the branch `schema` (its fixed values, such as `provider`, agree). */
function fits(schema: Schema, value: Record<string, unknown>): boolean {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.entries(props).every(([name, p]) => {
    const fixed = p.const !== undefined ? [p.const] : Array.isArray(p.enum) && p.enum.length === 1 ? p.enum : undefined;
    return fixed === undefined || fixed.includes(value[name]);
  });
}

function strip(schema: Schema | undefined, value: unknown, components: Components, depth: number): unknown {
  if (!schema || depth > 20 || value === null || typeof value !== 'object') return value;
  if (typeof schema.$ref === 'string') return strip(components[schema.$ref], value, components, depth + 1);
  if (Array.isArray(value)) return schema.items ? value.map((v) => strip(schema.items as Schema, v, components, depth + 1)) : value;
  const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(union)) {
    // The branch the value is (by its fixed fields); several that fit all hide what they mark.
    const branches = union.map((b) => (typeof b.$ref === 'string' ? (components[b.$ref] ?? b) : b)).filter((b) => isObject(value) && fits(b, value));
    return branches.reduce<unknown>((v, b) => strip(b, v, components, depth + 1), value);
  }
  if (!isObject(value) || !isObject(schema.properties)) return value;
  const props = schema.properties as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = props[k];
    if (p?.writeOnly === true) continue;
    out[k] = p ? strip(p, v, components, depth + 1) : v;
  }
  return out;
}

// Whether a schema can hold a write-only field anywhere (memoised per component): most answers
// cannot, and are returned untouched without a walk.
const reachingComponents = new Map<string, boolean>();
function reaches(schema: unknown, components: Components): boolean {
  if (!isObject(schema)) return Array.isArray(schema) && schema.some((s) => reaches(s, components));
  if (schema.writeOnly === true) return true;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref;
    if (!reachingComponents.has(name)) {
      reachingComponents.set(name, false); // a cycle reaches nothing new
      reachingComponents.set(name, reaches(components[name], components));
    }
    return reachingComponents.get(name) as boolean;
  }
  return Object.values(schema).some((v) => (isObject(v) || Array.isArray(v)) && reaches(v, components));
}

const answerReaches = new Map<string, boolean>();

/** `value` without what the answer schema of `METHOD path` (a template) marks write-only. */
export async function withoutWriteOnly(method: string, path: string, value: unknown): Promise<unknown> {
  const { components, operations } = await loadSchemaData();
  const key = `${method} ${path}`;
  const response = operations[key]?.response as Schema | undefined;
  if (!response) return value;
  if (!answerReaches.has(key)) answerReaches.set(key, reaches(response, components));
  return answerReaches.get(key) ? strip(response, value, components, 0) : value;
}
