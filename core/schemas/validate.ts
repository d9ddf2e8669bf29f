// Checks bodies, answers and server messages against the schema set derived from the platform's
// published API (scripts/derive-schemas.js). The data and the validator load on first use and each
// schema compiles the first time it is needed, so importing this module costs nothing at start.
import type { AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import type AjvClass from 'ajv';
import { explain, type SchemaError, type Resolve } from './explain.js';

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

/** Synchronous validators over the loaded schema set (from `loadSchemas()`). */
export interface Schemas {
  /** The derived facts of an operation, by method and path (template or concrete); undefined when unpublished. */
  operation(method: string, path: string): OperationSchema | undefined;
  /** Problems of a request body; [] when it fits or the operation publishes no body schema. */
  request(method: string, path: string, body: unknown): SchemaError[];
  /** Problems of a success answer; [] when it fits or the operation publishes no answer schema. */
  response(method: string, path: string, body: unknown): SchemaError[];
  /** Problems of a server message (its inner object with `type`, or the `{ message }` envelope). */
  serverMessage(message: unknown): SchemaError[];
  /** Problems of a server's answer to a message type; [] for types that expect no answer. */
  serverMessageResponse(type: string, answer: unknown): SchemaError[];
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
export async function validateRequest(method: string, path: string, body: unknown): Promise<SchemaError[]> {
  return (await loadSchemas()).request(method, path, body);
}

/** Problems of a success answer for `METHOD path`; [] when it fits. */
export async function validateResponse(method: string, path: string, body: unknown): Promise<SchemaError[]> {
  return (await loadSchemas()).response(method, path, body);
}

/** Problems of a server message the platform would send; [] when it fits. */
export async function validateServerMessage(message: unknown): Promise<SchemaError[]> {
  return (await loadSchemas()).serverMessage(message);
}

/** Problems of a developer's answer to a server message of `type`; [] when it fits. */
export async function validateServerMessageResponse(type: string, answer: unknown): Promise<SchemaError[]> {
  return (await loadSchemas()).serverMessageResponse(type, answer);
}

/** The messages of a list of problems, as the platform puts them in a 400's `message`. */
export function messagesOf(errors: readonly SchemaError[]): string[] {
  return errors.map((e) => e.message);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

async function build(): Promise<Schemas> {
  const [components, operations, messages, ajvModule, formatsModule] = await Promise.all([
    import('./components.json', { with: { type: 'json' } }),
    import('./operations.json', { with: { type: 'json' } }),
    import('./messages.json', { with: { type: 'json' } }),
    import('ajv'),
    import('ajv-formats'),
  ]);
  const comps = components.default as unknown as Record<string, AnySchema>;
  const ops = operations.default as unknown as Record<string, OperationSchema>;
  const msgs = messages.default as unknown as Messages;
  // ajv and ajv-formats are CommonJS; depending on the loader the class sits on one or two `default`s.
  const Ajv = unwrap<typeof AjvClass>(ajvModule);
  const addFormats = unwrap<(ajv: AjvClass, formats: string[]) => void>(formatsModule);
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    discriminator: true,
    strict: false,
    inlineRefs: false,
    validateSchema: false,
    addUsedSchema: false,
  });
  addFormats(ajv, ['date-time', 'uuid', 'uri']);
  for (const [name, schema] of Object.entries(comps)) ajv.addSchema(schema, name);

  const cache = new Map<AnySchema, ValidateFunction>();
  const compile = (schema: AnySchema): ValidateFunction => {
    const ref = (schema as { $ref?: string }).$ref;
    const keys = Object.keys(schema as object);
    // A bare reference compiles once under its component's name, whatever object carries it.
    if (ref && keys.length === 1) {
      const fn = ajv.getSchema(ref);
      if (!fn) throw new Error(`no derived schema named ${ref}`);
      return fn;
    }
    let fn = cache.get(schema);
    if (!fn) {
      fn = ajv.compile(schema);
      cache.set(schema, fn);
    }
    return fn;
  };
  const resolve: Resolve = (schema) => {
    const ref = (schema as { $ref?: string }).$ref;
    return (ref ? comps[ref] : schema) as Record<string, unknown>;
  };
  const check = (schema: AnySchema, data: unknown, prefix = ''): SchemaError[] => {
    const fn = compile(schema);
    if (fn(data)) return [];
    return explain((fn.errors ?? []) as ErrorObject[], { resolve, check: (s, d, p) => check(s as AnySchema, d, p) }, prefix);
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
  const serverMessage = (message: unknown): SchemaError[] => {
    if (isObject(message) && !('type' in message) && isObject(message.message)) {
      return check({ $ref: 'ServerMessage' }, message);
    }
    const type = isObject(message) ? message.type : undefined;
    const member = typeof type === 'string' ? msgs.messages[type] : undefined;
    if (!member) {
      if (!isObject(message)) return [{ path: '', message: 'message must be an object' }];
      return [{ path: 'type', message: `type must be one of the following values: ${messageTypes.join(', ')}` }];
    }
    return check({ $ref: member }, message);
  };

  return {
    operation,
    request: (method, path, body) => {
      const schema = operation(method, path)?.request;
      return schema ? check(schema, body) : [];
    },
    response: (method, path, body) => {
      const schema = operation(method, path)?.response;
      return schema ? check(schema, body) : [];
    },
    serverMessage,
    serverMessageResponse: (type, answer) => {
      const name = msgs.responses[type];
      return name ? check({ $ref: name }, answer) : [];
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
