// One ajv instance over the derived components, compiled lazily per component. The platform's
// schemas reference each other densely (a tool names a squad, which names assistants, which name
// tools...), so compiling a body schema with its references up front takes seconds. Here every
// `$ref` becomes a `lazyRef` keyword that compiles the component it names the first time data
// reaches it, and every tagged union a `tagged` keyword that picks its branch by the tag value.
// A large inline property schema is deferred the same way: a body that sets three of an
// assistant's hundred fields compiles those three (the whole assistant took a second and more).
import type { AnySchema, ValidateFunction } from 'ajv';
import type AjvClass from 'ajv';
import { explain, type SchemaError, type TracedError } from './explain.js';
import { VoiceError } from '../errors.js';
import { isObject } from '../json.js';

/** Checks a value against a schema; `prefix` is the dotted path of the value in its document. */
export type Check = (schema: AnySchema, data: unknown, prefix?: string) => SchemaError[];

/** A tagged union as the `tagged` keyword carries it: the tag property and the component of each value. */
interface Tagged {
  tag: string;
  map: Record<string, string>;
}

type Schema = Record<string, unknown>;

/** The values a branch of a tagged union takes for its tag. */
function tagValues(branch: Schema | undefined, tag: string): string[] {
  const prop = (branch?.properties as Record<string, Schema> | undefined)?.[tag];
  if (prop?.const !== undefined) return [String(prop.const)];
  return ((prop?.enum as unknown[] | undefined) ?? []).map(String);
}

/** Inline property schemas at least this long (as JSON) are compiled only when data reaches them. */
const DEFER_JSON_LENGTH = 400;

/**
 * The derived schema rewritten for lazy compiling: `$ref` → `lazyRef`, discriminated `oneOf` →
 * `tagged`; with `closed` false, `additionalProperties: false` is dropped (unknown properties pass).
 * `defer` may name a property's schema as a component of its own, making it a `lazyRef` too.
 */
export function rewrite(schema: unknown, comps: Readonly<Record<string, Schema>>, closed: boolean, defer?: (property: unknown) => string | undefined): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rewrite(s, comps, closed, defer));
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === 'string') return { lazyRef: schema.$ref };
  const out: Schema = {};
  const disc = schema.discriminator as { propertyName: string } | undefined;
  if (disc && Array.isArray(schema.oneOf)) {
    const map: Record<string, string> = {};
    for (const branch of schema.oneOf as Schema[]) {
      const name = branch.$ref as string;
      for (const v of tagValues(comps[name], disc.propertyName)) map[v] = name;
    }
    out.tagged = { tag: disc.propertyName, map } satisfies Tagged;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (disc && (k === 'discriminator' || k === 'oneOf' || k === 'type')) continue;
    if (k === 'additionalProperties' && v === false && !closed) continue;
    // A write-only field is required of requests only (OpenAPI's rule): an answer never has it.
    if (k === 'required' && !closed && Array.isArray(v) && isObject(schema.properties)) {
      const props = schema.properties as Record<string, Schema>;
      out[k] = v.filter((name) => props[name as string]?.writeOnly !== true);
    } else if (k === 'enum' || k === 'required' || k === 'const') out[k] = v;
    else if (k === 'properties')
      out[k] = Object.fromEntries(
        Object.entries(v as Schema).map(([p, s]) => {
          const deferred = defer?.(s);
          return [p, deferred ? { lazyRef: deferred } : rewrite(s, comps, closed, defer)];
        }),
      );
    else out[k] = rewrite(v, comps, closed, defer);
  }
  return out;
}

function traced(errors: readonly TracedError[], at: string): TracedError[] {
  return errors.map((e) => ({ ...e, instancePath: at + e.instancePath, origSchema: e.origSchema ?? e.schema, origData: 'origData' in e ? e.origData : e.data }));
}

/** Builds one checking world over the components: closed (bodies, as the platform checks them) or open. */
export function universe(Ajv: typeof AjvClass, addFormats: (ajv: AjvClass, formats: string[]) => void, comps: Readonly<Record<string, Schema>>, closed: boolean): Check {
  // Budget: `voice test` <= 1.25x its ideal. ajv's passes that tidy the generated code cost more
  // while compiling than they save: without them `voice test` reaches its first model request
  // 45-53 ms sooner, and a check of an assistant body takes about a microsecond more (20,000 in
  // 49-72 ms, against 47-54 ms with them).
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, validateSchema: false, addUsedSchema: false, code: { optimize: false } });
  addFormats(ajv, ['date-time', 'uuid', 'uri']);
  const named = new Map<string, ValidateFunction>();
  // The components, and the large property schemas deferred as components of their own.
  const all: Record<string, Schema> = { ...comps };
  const deferredName = new Map<Schema, string>();
  const defer = (property: unknown): string | undefined => {
    if (!isObject(property) || typeof property.$ref === 'string') return undefined;
    let name = deferredName.get(property);
    if (!name && JSON.stringify(property).length >= DEFER_JSON_LENGTH) {
      name = `~property ${deferredName.size + 1}`;
      deferredName.set(property, name);
      all[name] = property;
    }
    return name;
  };
  const component = (name: string): ValidateFunction => {
    let fn = named.get(name);
    if (!fn) {
      const schema = all[name];
      if (!schema) throw new VoiceError(`no derived schema named ${name}`);
      named.set(name, (fn = ajv.compile(rewrite(schema, comps, closed, defer) as AnySchema)));
    }
    return fn;
  };

  // Both keywords run the component's own compiled function and hand its errors up, re-rooted at
  // the value's place; ajv reads `errors` off the keyword function right after each call.
  const lazyRef = (name: string, data: unknown, _parent: unknown, cxt?: { instancePath: string }): boolean => {
    const fn = component(name);
    if (fn(data)) return true;
    lazyRef.errors = traced((fn.errors ?? []) as TracedError[], cxt?.instancePath ?? '');
    return false;
  };
  lazyRef.errors = [] as TracedError[];
  ajv.addKeyword({ keyword: 'lazyRef', schemaType: 'string', errors: true, validate: lazyRef });

  const tagged = (def: Tagged, data: unknown, _parent: unknown, cxt?: { instancePath: string }): boolean => {
    const at = cxt?.instancePath ?? '';
    if (!isObject(data)) {
      tagged.errors = [{ keyword: 'type', instancePath: at, schemaPath: '', params: { type: 'object' } }];
      return false;
    }
    const value = data[def.tag];
    const name = typeof value === 'string' ? def.map[value] : undefined;
    if (!name) {
      tagged.errors = [{ keyword: 'discriminator', instancePath: at, schemaPath: '', params: { tag: def.tag, tagValue: value, allowed: Object.keys(def.map) } }];
      return false;
    }
    return lazyRef.call(undefined, name, data, undefined, cxt) || ((tagged.errors = lazyRef.errors), false);
  };
  tagged.errors = [] as TracedError[];
  ajv.addKeyword({ keyword: 'tagged', schemaType: 'object', errors: true, validate: tagged });

  const inline = new Map<AnySchema, ValidateFunction>();
  const compile = (schema: AnySchema): ValidateFunction => {
    const ref = (schema as { $ref?: string }).$ref;
    if (ref && Object.keys(schema as object).length === 1) return component(ref);
    let fn = inline.get(schema);
    if (!fn) inline.set(schema, (fn = ajv.compile(rewrite(schema, comps, closed, defer) as AnySchema)));
    return fn;
  };
  const resolve = (schema: unknown): Schema => {
    const ref = (schema as { $ref?: string; lazyRef?: string }).$ref ?? (schema as { lazyRef?: string }).lazyRef;
    return (ref ? all[ref] : schema) as Schema;
  };
  const check: Check = (schema, data, prefix = '') => {
    const fn = compile(schema);
    if (fn(data)) return [];
    return explain((fn.errors ?? []) as TracedError[], { resolve, check: (s, d, p) => check(toDerived(s), d, p) }, prefix);
  };
  return check;
}

/** A rewritten branch back in the derived form `check` takes (a `lazyRef` is a `$ref`). */
function toDerived(schema: unknown): AnySchema {
  const ref = (schema as { lazyRef?: string }).lazyRef;
  return (ref && Object.keys(schema as object).length === 1 ? { $ref: ref } : schema) as AnySchema;
}
