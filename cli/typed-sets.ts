// `--set a.b=value` checked and typed by the published request schema of the field: a string field
// gets the text as typed, numbers and booleans are parsed, unknown fields and values are refused
// before anything is sent, with the closest known name.
import type { FieldInfo } from '#core/schemas/fields';
import { fieldIn, requestSchemaOf } from '#core/schemas/fields';
import { parseSetValue } from './body.js';
import { usageError } from './errors.js';
import { closestFirst, suggestion } from '#core/schemas/closest';

/** Looks up a dotted path of a body in an operation's request schema, narrowing unions by the body so far. */
export type FieldLookup = (path: readonly string[], body: unknown) => FieldInfo;

/** The field lookup of an operation's request body, or undefined when no request schema is published. */
export async function fieldLookupOf(method: string, pathTemplate: string): Promise<FieldLookup | undefined> {
  const found = await requestSchemaOf(method, pathTemplate);
  if (!found) return undefined;
  return (path, body) => fieldIn(found.schema, found.comps, path, body);
}

const JSON_TYPE = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

/** A usage error for a field the schema does not know, naming the closest known one. */
export function unknownField(path: readonly string[], info: Extract<FieldInfo, { known: false }>, flag = '--set'): Error {
  const before = path.slice(0, info.at);
  const typed = path[info.at] as string;
  const full = path.join('.');
  const near = suggestion(typed, info.names);
  const where = before.length ? `${before.join('.')} has` : 'known fields:';
  if (near)
    return usageError(
      `${flag} ${full}: unknown field. Did you mean ${[...before, near].join('.')}?`,
      `${before.length ? `${where} fields` : 'Known fields'}, closest first: ${closestFirst(typed, info.names).slice(0, 8).join(', ')}`,
    );
  return usageError(`${flag} ${full}: unknown field.`, `${before.length ? `${before.join('.')} has:` : 'Known fields:'} ${info.names.join(', ')}`);
}

/** The value of `--set path=raw` typed by the field's schema; throws a usage error for unknown fields and values. */
export function typedSetValue(lookup: FieldLookup | undefined, path: readonly string[], raw: string, body: unknown): unknown {
  const parsed = parseSetValue(raw);
  if (!lookup) return parsed;
  const info = lookup(path, body);
  if (!info.known) throw unknownField(path, info);
  const types = info.types.map((t) => (t === 'integer' ? 'number' : t));
  let value = parsed;
  if (types.length && !types.includes(JSON_TYPE(parsed).replace('integer', 'number'))) {
    // A string field gets the text as typed ("12345" stays a string); any other mismatch is refused
    // here, before a request the platform would answer with a 400.
    if (!types.includes('string')) {
      const wanted = [...new Set(info.types)].map((t) => (t === 'integer' ? 'a whole number' : t === 'array' ? 'a JSON array' : t === 'object' ? 'a JSON object' : t === 'null' ? 'null' : `a ${t}`));
      throw usageError(
        `--set ${path.join('.')}=${raw}: ${path.join('.')} takes ${wanted.join(' or ')}.`,
        'Numbers and booleans go as typed (--set model.temperature=0.5); objects and arrays as JSON.',
      );
    }
    value = raw;
  }
  if (info.values && typeof value === 'string' && !info.values.includes(value)) {
    const near = suggestion(value, info.values);
    const list = info.values.length > 12 ? `${closestFirst(value, info.values).slice(0, 12).join(', ')}, …` : info.values.join(', ');
    throw usageError(`--set ${path.join('.')}=${raw}: "${value}" is not one of its values.${near ? ` Did you mean ${near}?` : ''}`, `${near ? 'Closest first' : 'Allowed'}: ${list}`);
  }
  return value;
}

/** Checks an `--unset` path names a field the schema knows. */
export function checkUnsetPath(lookup: FieldLookup | undefined, path: readonly string[], body: unknown): void {
  if (!lookup) return;
  const info = lookup(path, body);
  if (!info.known) throw unknownField(path, info, '--unset');
}
