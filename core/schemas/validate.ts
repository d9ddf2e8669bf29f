// Checks bodies, answers and server messages against the schema set derived from the platform's
// published API (scripts/derive-schemas.js). The data and the validator load on first use and each
// schema compiles the first time it is needed, so importing this module costs nothing at start.
import type { AnySchema } from 'ajv';
import type AjvClass from 'ajv';
import type { SchemaError } from './explain.js';
import { universe, type Check } from './universe.js';
import { isObject } from '../json.js';

export type { SchemaError } from './explain.js';

/** What the derived set knows about one operation. */
export interface OperationSchema {
  /** Request body schema; absent when the operation takes no body. */
  request?: AnySchema;
  /** Success answer schema; absent when the success answer has no JSON body. */
  response?: AnySchema;
  /** Success status code. */
  status?: number;
  /** The body is multipart form data (uploads). */
  multipart?: boolean;
}

/** How strictly to check. */
export interface CheckOptions {
  /**
   * Refuse properties a schema does not declare ("property x should not exist"). The platform does
   * so for request bodies (the default there); answers and messages default to open.
   */
  closed?: boolean;
}

/** Synchronous validators over the loaded schema set (from `loadSchemas()`). */
export interface Schemas {
  /** The derived facts of an operation, by method and path (template or concrete); undefined when unpublished. */
  operation(method: string, path: string): OperationSchema | undefined;
  /** Problems of a request body (unknown properties refused unless `closed: false`); [] when it fits or no body schema is published. */
  request(method: string, path: string, body: unknown, options?: CheckOptions): SchemaError[];
  /** The top-level properties of an operation's request schema (a form's fields are typed by them); undefined when unpublished. */
  requestProperties(method: string, path: string): Readonly<Record<string, Record<string, unknown>>> | undefined;
  /** Problems of a success answer (unknown properties allowed unless `closed: true`); [] when it fits or no answer schema is published. */
  response(method: string, path: string, body: unknown, options?: CheckOptions): SchemaError[];
  /** Problems of a server message (its inner object with `type`, or the `{ message }` envelope); open unless `closed: true`. */
  serverMessage(message: unknown, options?: CheckOptions): SchemaError[];
  /** Problems of a server's answer to a message type (open unless `closed: true`); [] for types that expect no answer. */
  serverMessageResponse(type: string, answer: unknown, options?: CheckOptions): SchemaError[];
  /** Every server message type of the ServerMessage union. */
  readonly messageTypes: readonly string[];
  /** Message types whose answer the platform reads (assistant-request, tool-calls, ...). */
  readonly answeredTypes: readonly string[];
}

interface Messages {
  messages: Record<string, string>;
  responses: Record<string, string>;
}

let loading: Promise<Schemas> | undefined;

/** Loads the derived set and the validator once; later calls return the same instance. */
export function loadSchemas(): Promise<Schemas> {
  loading ??= build();
  return loading;
}

/** Problems of a request body for `METHOD path`; [] when it fits. */
export async function validateRequest(method: string, path: string, body: unknown, options?: CheckOptions): Promise<SchemaError[]> {
  return (await loadSchemas()).request(method, path, body, options);
}

/** Problems of a success answer for `METHOD path`; [] when it fits. */
export async function validateResponse(method: string, path: string, body: unknown, options?: CheckOptions): Promise<SchemaError[]> {
  return (await loadSchemas()).response(method, path, body, options);
}

/** Problems of a server message the platform would send; [] when it fits. */
export async function validateServerMessage(message: unknown, options?: CheckOptions): Promise<SchemaError[]> {
  return (await loadSchemas()).serverMessage(message, options);
}

/** Problems of a developer's answer to a server message of `type`; [] when it fits. */
export async function validateServerMessageResponse(type: string, answer: unknown, options?: CheckOptions): Promise<SchemaError[]> {
  return (await loadSchemas()).serverMessageResponse(type, answer, options);
}

/** The messages of a list of problems, as the platform puts them in a 400's `message`. */
export function messagesOf(errors: readonly SchemaError[]): string[] {
  return errors.map((e) => e.message);
}

async function build(): Promise<Schemas> {
  const [components, operations, messages, ajvModule, formatsModule] = await Promise.all([
    import('./components.json', { with: { type: 'json' } }),
    import('./operations.json', { with: { type: 'json' } }),
    import('./messages.json', { with: { type: 'json' } }),
    import('ajv'),
    import('ajv-formats'),
  ]);
  const comps = components.default as unknown as Record<string, Record<string, unknown>>;
  const ops = operations.default as unknown as Record<string, OperationSchema>;
  const msgs = messages.default as unknown as Messages;
  // ajv and ajv-formats are CommonJS; depending on the loader the class sits on one or two `default`s.
  const Ajv = unwrap<typeof AjvClass>(ajvModule);
  const addFormats = unwrap<(ajv: AjvClass, formats: string[]) => void>(formatsModule);
  const worlds = new Map<boolean, Check>();
  const checker = (closed: boolean): Check => {
    let found = worlds.get(closed);
    if (!found) worlds.set(closed, (found = universe(Ajv, addFormats, comps, closed)));
    return found;
  };

  const templates = Object.keys(ops).map((key) => {
    const [method, path] = key.split(' ') as [string, string];
    return { key, method, segments: path.split('/'), params: (path.match(/\{/g) ?? []).length };
  });
  const operation = (method: string, path: string): OperationSchema | undefined => {
    const m = method.toUpperCase();
    const exact = ops[`${m} ${path}`];
    if (exact) return exact;
    const segments = path.split('?')[0]!.split('/');
    const found = templates
      .filter((t) => t.method === m && t.segments.length === segments.length)
      .filter((t) => t.segments.every((s, i) => s === segments[i] || (s.startsWith('{') && segments[i] !== '')))
      .sort((a, b) => a.params - b.params)[0];
    return found ? ops[found.key] : undefined;
  };

  const messageTypes = Object.keys(msgs.messages);
  const serverMessage = (message: unknown, closed: boolean, prefix = ''): SchemaError[] => {
    if (isObject(message) && !('type' in message) && isObject(message.message)) {
      const extra = closed ? Object.keys(message).filter((k) => k !== 'message') : [];
      return [...extra.map((k) => ({ path: k, message: `property ${k} should not exist` })), ...serverMessage(message.message, closed, 'message')];
    }
    const type = isObject(message) ? message.type : undefined;
    const member = typeof type === 'string' ? msgs.messages[type] : undefined;
    if (!member) {
      const at = prefix ? `${prefix}.type` : 'type';
      if (!isObject(message)) return [{ path: prefix, message: `${prefix || 'message'} must be an object` }];
      return [{ path: at, message: `${at} must be one of the following values: ${messageTypes.join(', ')}` }];
    }
    return checker(closed)({ $ref: member }, message, prefix);
  };

  return {
    operation,
    request: (method, path, body, options) => {
      const schema = operation(method, path)?.request;
      return schema ? checker(options?.closed ?? true)(schema, body) : [];
    },
    requestProperties: (method, path) => {
      const schema = operation(method, path)?.request as { $ref?: string } | undefined;
      const resolved = typeof schema?.$ref === 'string' ? comps[schema.$ref] : (schema as Record<string, unknown> | undefined);
      return isObject(resolved?.properties) ? (resolved.properties as Record<string, Record<string, unknown>>) : undefined;
    },
    response: (method, path, body, options) => {
      const schema = operation(method, path)?.response;
      return schema ? checker(options?.closed ?? false)(schema, body) : [];
    },
    serverMessage: (message, options) => serverMessage(message, options?.closed ?? false),
    serverMessageResponse: (type, answer, options) => {
      const name = msgs.responses[type];
      return name ? checker(options?.closed ?? false)({ $ref: name }, answer) : [];
    },
    messageTypes,
    answeredTypes: Object.keys(msgs.responses),
  };
}

function unwrap<T>(mod: unknown): T {
  let v = mod as { default?: unknown };
  while (typeof v !== 'function' && v && v.default) v = v.default as { default?: unknown };
  return v as T;
}

/** One named part of the derived schemas (`CreateAssistantDTO`), as it is stored: `$ref`s name other parts. */
export async function componentSchema(name: string): Promise<Record<string, unknown> | undefined> {
  const components = (await import('./components.json', { with: { type: 'json' } })).default as unknown as Record<string, Record<string, unknown>>;
  return Object.hasOwn(components, name) ? components[name] : undefined;
}
