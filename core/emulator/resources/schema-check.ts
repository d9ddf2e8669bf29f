// Request bodies checked against the platform's published request schemas (the derived set in
// core/schemas), answered like the platform: a 400 whose `message` names every bad field.
import { loadSchemas, messagesOf } from '../../schemas/validate.js';
import type { Schemas } from '../../schemas/validate.js';
import { badRequest } from '../errors.js';
import type { Form } from '../http/multipart.js';

let schemas: Schemas | undefined;

/** Resolves when the body fits the operation's request schema (or none is published); else rejects with a 400. */
export async function checkBody(method: string, path: string, body: unknown): Promise<void> {
  // Loaded on the first body, never at start: starting the emulator stays as fast as before.
  schemas ??= await loadSchemas();
  const errors = schemas.request(method, path, body);
  if (errors.length) throw badRequest(messagesOf(errors));
}

/** A form's value as the request schema types the field: repeated or array fields as lists, numbers and booleans parsed. */
function typed(values: string[], schema: Record<string, unknown> | undefined): unknown {
  const type = schema?.type;
  const one = (v: string): unknown => {
    const item = type === 'array' ? (schema?.items as Record<string, unknown> | undefined)?.type : type;
    if ((item === 'number' || item === 'integer') && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    if (item === 'boolean' && (v === 'true' || v === 'false')) return v === 'true';
    return v;
  };
  if (type === 'array' || values.length > 1) return values.map(one);
  return one(values[0] as string);
}

/**
 * Resolves when a multipart form fits the operation's request schema, read as the platform reads
 * forms (text fields and file parts by name, typed by the schema); else rejects with a 400.
 */
export async function checkForm(method: string, path: string, form: Form): Promise<void> {
  schemas ??= await loadSchemas();
  const props = schemas.requestProperties(method, path);
  if (!props) return;
  const named = new Map<string, string[]>();
  const add = (name: string, value: string): void => {
    const key = name.endsWith('[]') ? name.slice(0, -2) : name;
    named.set(key, [...(named.get(key) ?? []), value]);
  };
  for (const [name, value] of Object.entries(form.fields)) for (const v of Array.isArray(value) ? value : [value]) add(name, v);
  // A file part stands for a binary string: its name is enough to check presence and count.
  for (const f of form.files) add(f.field, f.filename || 'file');
  const body: Record<string, unknown> = {};
  for (const [name, values] of named) body[name] = typed(values, props[name]);
  const errors = schemas.request(method, path, body);
  if (errors.length) throw badRequest(messagesOf(errors));
}
