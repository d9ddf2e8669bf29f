// The shape of one catalogue entry and the types derived from it. Everything that
// knows about an endpoint (client method, CLI command, emulator route) reads an Op.

/** HTTP methods the platform uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a request body is sent: none, JSON, or multipart form data (uploads). */
export type BodyKind = 'none' | 'json' | 'multipart';

/** How a list answers: a bare array paged by `createdAtLt`, or `{ results, metadata }` paged by `page`. */
export type ListKind = 'plain' | 'paginated';

/** How an answer is read: JSON (or text) by default, or raw bytes (recordings, packet captures). */
export type ResponseKind = 'json' | 'binary';

/** A phantom carrier for the body and result types of an operation; it holds no data. */
export interface Shape<Body, Result> {
  readonly __body?: Body;
  readonly __result?: Result;
}

/** One platform operation. */
export interface Op<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Q extends readonly string[] = readonly string[],
  B extends BodyKind = BodyKind,
  Body = unknown,
  Result = unknown,
  L extends ListKind | undefined = ListKind | undefined,
> {
  readonly method: M;
  /** Path template; `{name}` marks a path value, filled in order of appearance. */
  readonly path: P;
  /** `bearer` sends the API key; `none` sends no authorization at all. */
  readonly auth: 'bearer' | 'none';
  /** Query parameter names the operation accepts. */
  readonly query: Q;
  readonly body: B;
  /** Form field that carries the file of a multipart upload; `file` when absent. */
  readonly fileField?: string;
  /** Set for list operations. */
  readonly list?: L;
  readonly deprecated?: boolean;
  /** Called from web pages on any site with a public key; the platform answers every origin (CORS). */
  readonly browser?: boolean;
  /** `binary` when the answer is a file (the client returns its bytes as a Uint8Array). */
  readonly response?: ResponseKind;
  /** One line for help text. */
  readonly summary: string;
  readonly shape: Shape<Body, Result>;
}

/** A resource: operations and nested sub-resources keyed by camelCase name. */
export interface Group {
  readonly [name: string]: Op | Group;
}

/** The dotted keys of every operation under a catalogue node, e.g. `'testSuite.run.list'` (an `Entry`'s `keys` joined by dots). */
export type OpKey<T> = { [K in keyof T & string]: T[K] extends Op ? K : `${K}.${OpKey<T[K]>}` }[keyof T & string];

/** True when a catalogue node is an operation rather than a group. */
export function isOp(node: Op | Group): node is Op {
  return typeof (node as Op).method === 'string' && typeof (node as Op).path === 'string';
}

/** Names of the `{param}` segments of a path template, in order. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? [Name, ...PathParams<Rest>] : [];

/** Value types of query parameters whose type is not a plain string. */
export interface KnownQueryTypes {
  limit: number;
  page: number;
  sortOrder: 'ASC' | 'DESC';
  idAny: string[];
  assistantIdAny: string[];
  customerNumberAny: string[];
  phoneNumberIdAny: string[];
  costLe: number;
  costGe: number;
  cost: number;
  numberE164CheckEnabled: boolean;
  includeCounters: boolean;
  standaloneOnly: boolean;
  rangeStart: Date | string;
  rangeEnd: Date | string;
  createdAtGt: Date | string;
  createdAtLt: Date | string;
  createdAtGe: Date | string;
  createdAtLe: Date | string;
  updatedAtGt: Date | string;
  updatedAtLt: Date | string;
  updatedAtGe: Date | string;
  updatedAtLe: Date | string;
}

/** A value the client can put in a query string. */
export type QueryValue = string | number | boolean | Date | ReadonlyArray<string | number | boolean | Date>;

/** The query object of an operation, typed from its parameter list. */
export type QueryOf<Q extends readonly string[]> = {
  [K in Q[number]]?: K extends keyof KnownQueryTypes ? KnownQueryTypes[K] : string;
};

/** Body type of an operation. */
export type BodyOf<O> = O extends Op<HttpMethod, string, readonly string[], BodyKind, infer B, unknown, ListKind | undefined> ? B : never;

/** Result type of an operation. */
export type ResultOf<O> = O extends Op<HttpMethod, string, readonly string[], BodyKind, unknown, infer R, ListKind | undefined> ? R : never;

/** Declares the body and result types of an operation. */
export function shape<Body = never, Result = unknown>(): Shape<Body, Result> {
  return {};
}

interface Spec<P extends string, Q extends readonly string[], B extends BodyKind, Body, Result, L extends ListKind | undefined> {
  path: P;
  query?: Q;
  body?: B;
  fileField?: string;
  auth?: 'bearer' | 'none';
  list?: L;
  deprecated?: boolean;
  browser?: boolean;
  response?: ResponseKind;
  summary: string;
  shape: Shape<Body, Result>;
}

function make<M extends HttpMethod>(method: M) {
  return <
    P extends string,
    const Q extends readonly string[] = [],
    B extends BodyKind = M extends 'GET' | 'DELETE' ? 'none' : 'json',
    Body = never,
    Result = unknown,
    L extends ListKind | undefined = undefined,
  >(
    spec: Spec<P, Q, B, Body, Result, L>,
  ): Op<M, P, Q, B, Body, Result, L> => ({
    method,
    path: spec.path,
    auth: spec.auth ?? 'bearer',
    query: (spec.query ?? []) as unknown as Q,
    body: (spec.body ?? (method === 'GET' || method === 'DELETE' ? 'none' : 'json')) as B,
    ...(spec.fileField ? { fileField: spec.fileField } : {}),
    ...(spec.list ? { list: spec.list } : {}),
    ...(spec.deprecated ? { deprecated: true } : {}),
    ...(spec.browser ? { browser: true } : {}),
    ...(spec.response === 'binary' ? { response: 'binary' as const } : {}),
    summary: spec.summary,
    shape: spec.shape,
  });
}

/** Entry builders, one per method. */
export const get = make('GET');
export const post = make('POST');
export const put = make('PUT');
export const patch = make('PATCH');
export const del = make('DELETE');

/** One catalogue entry flattened with its place in the tree. */
export interface Entry {
  /** camelCase keys from the root, e.g. `['testSuite', 'run', 'list']`. */
  readonly keys: readonly string[];
  /** kebab-case resource words for the CLI, e.g. `['test-suite', 'run']`. */
  readonly resource: readonly string[];
  /** kebab-case action, e.g. `list`, `import-twilio`. */
  readonly action: string;
  readonly op: Op;
}

/** camelCase to kebab-case (`phoneNumber` to `phone-number`). */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Every operation of a catalogue tree with its keys, in declaration order. */
export function flatten(tree: Group, prefix: readonly string[] = []): Entry[] {
  const out: Entry[] = [];
  for (const [key, node] of Object.entries(tree)) {
    const keys = [...prefix, key];
    if (isOp(node)) {
      out.push({ keys, resource: prefix.map(kebab), action: kebab(key), op: node });
    } else {
      out.push(...flatten(node, keys));
    }
  }
  return out;
}

/** Names of the path values of a template, at run time. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/** Something to upload: a file path (Node only), bytes, a Blob, or a stream. */
export type UploadSource = string | Uint8Array | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A multipart upload: the file plus optional form fields. */
export interface Upload {
  /** One source, or several for endpoints that take many files (voice cloning). */
  file: UploadSource | UploadSource[];
  /** File name sent with the part; defaults to the path's base name or `file`. */
  filename?: string;
  /** Content type of the part; guessed from the name when absent. */
  contentType?: string;
  [field: string]: unknown;
}
