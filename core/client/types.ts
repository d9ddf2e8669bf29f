// The client's public types. Method signatures are computed from the catalogue entry of each
// operation, so a path, query, body or result type cannot drift from the table.
import type { Catalogue, Upload } from '../catalogue/index.js';
import type { BodyOf, HttpMethod, Op, PathParams, QueryOf, QueryValue, ResultOf } from '../catalogue/define.js';
import type { PublishedFields } from '../catalogue/published-fields.js';
import type { ApiPromise, ListPromise } from './promise.js';

export type { WithResponse } from './promise.js';
import type { Transport } from './transport.js';

/** Options of `createClient`. */
export interface ClientOptions {
  /** API key sent as `Authorization: Bearer <key>` on secured operations. */
  apiKey?: string | undefined;
  /** Platform base URL; defaults to `https://api.vapi.ai`. */
  baseUrl?: string | undefined;
  /** A fetch implementation to send requests with (default: the platform's transport). */
  fetch?: typeof fetch | undefined;
  /** Per-attempt timeout in milliseconds; default 60000. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt for retryable failures; default 2. */
  maxRetries?: number | undefined;
  /** First back-off delay in milliseconds, doubled per retry with jitter; default 500. */
  retryDelayMs?: number | undefined;
  /** Extra headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** User-Agent header; default `voice/<version>` outside browsers. */
  userAgent?: string | undefined;
  /** Low-level sender (the Node entry sets its pooled one); ignored when `fetch` is given. */
  transport?: Transport | undefined;
  /** Turns an upload's file path into a Blob; set by the Node entry (browsers have no paths). */
  readPath?: ((path: string) => Promise<Blob>) | undefined;
}

/** Options of one request. */
export interface RequestOptions {
  /** Aborts the request (and any back-off wait) when signalled. */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout in milliseconds for this request. */
  timeoutMs?: number | undefined;
  /** Retries for this request. */
  maxRetries?: number | undefined;
  /** Allows retrying POST and PATCH, which are not idempotent. */
  retryNonIdempotent?: boolean | undefined;
  /** Extra headers for this request. */
  headers?: Record<string, string> | undefined;
  /** Query parameters of an operation that takes a body too (e.g. `schemaOverride` on a structured-output update). */
  query?: Record<string, QueryValue | null | undefined> | undefined;
}

/** A raw request for `client.request`, for paths outside the catalogue or generic callers. */
export interface RawRequest extends RequestOptions {
  method: HttpMethod;
  /** Path below the base URL, already filled in (e.g. `/assistant/abc`). */
  path: string;
  query?: Record<string, QueryValue | null | undefined> | undefined;
  /** JSON body, or an Upload for multipart. */
  body?: unknown;
  /** `none` sends no Authorization header; default `bearer`. */
  auth?: 'bearer' | 'none' | undefined;
  /** Body kind; default `json` when a body is given. */
  bodyKind?: 'json' | 'multipart' | undefined;
}

/** The item type of a list result: the element of an array or of a page's `results`. */
export type ItemOf<R> = R extends ReadonlyArray<infer T> ? T : R extends { results: ReadonlyArray<infer T> } ? T : unknown;

/** The fields a type declares by name (its index signature left out; optional ones stay optional). */
type Declared<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** The published top-level fields of an operation's JSON body; never when none are published. */
export type PublishedKeys<O extends Op> = `${O['method']} ${O['path']}` extends keyof PublishedFields ? PublishedFields[`${O['method']} ${O['path']}`] : never;

/**
 * A body closed to the platform's published fields: the declared ones keep their types, the other
 * published ones take any value, and a field the platform does not publish (a typo) does not compile.
 */
export type ClosedBody<Body, Keys extends string> = [Keys] extends [never] ? Body : Declared<Body> & { [K in Exclude<Keys, keyof Declared<Body>>]?: unknown };

/** The body an operation's method takes (closed to its published fields). */
export type BodyInput<O extends Op> = ClosedBody<BodyOf<O>, PublishedKeys<O>>;

type BodyArg<O extends Op> = O['body'] extends 'multipart'
  ? [body: BodyOf<O> extends never ? Upload : BodyOf<O>]
  : Record<string, never> extends BodyOf<O>
    ? [body?: BodyInput<O>]
    : [body: BodyInput<O>];

/** The params argument of an operation: its body, its query object, or nothing. */
export type ParamsArg<O extends Op> = O['body'] extends 'none' ? (O['query'] extends readonly [] ? [] : [query?: QueryOf<O['query']>]) : BodyArg<O>;

type Strings<T extends readonly unknown[]> = { [K in keyof T]: string };

/** One string per `{name}` of a path template, as a tuple (mapping a type parameter keeps it a tuple). */
export type PathValues<P extends string> = Strings<PathParams<P>>;

/** The arguments of an operation's method: path values, params, options. */
export type ArgsOf<O extends Op> = [...PathValues<O['path']>, ...ParamsArg<O>, options?: RequestOptions];

/**
 * Whether an operation is a list, at the type level. The catalogue's Op type does not carry its
 * `list` kind, so: a `Paginated` result is a paginated list, and an array result under the key
 * `list` is a plain list (list-kinds.test.ts holds this rule against the catalogue at run time).
 */
export type IsList<O extends Op, K> =
  ResultOf<O> extends { results: ReadonlyArray<unknown>; metadata: unknown } ? true : K extends 'list' ? (ResultOf<O> extends ReadonlyArray<unknown> ? true : false) : false;

/** What an operation's method returns. */
export type ReturnOf<O extends Op, K = never> = IsList<O, K> extends true ? ListPromise<ItemOf<ResultOf<O>>, ResultOf<O>> : ApiPromise<ResultOf<O>>;

/** The method for one operation (`K` is its key in the catalogue). */
export type MethodOf<O extends Op, K = never> = (...args: ArgsOf<O>) => ReturnOf<O, K>;

/** A namespace of methods mirroring a catalogue group. */
export type Namespace<G> = { readonly [K in keyof G]: G[K] extends Op ? MethodOf<G[K], K> : Namespace<G[K]> };

/** Generic entry points, used by callers that walk the catalogue (the CLI). */
export interface ClientCore {
  /** Calls an operation with its path values, params (body or query) and options. */
  invoke(op: Op, pathValues: readonly string[], params?: unknown, options?: RequestOptions): ApiPromise<unknown> | ListPromise<unknown, unknown>;
  /** Sends a request by method and path. */
  request(req: RawRequest): ApiPromise<unknown>;
  /** The options the client was created with, defaults applied. */
  readonly options: Readonly<ClientOptions>;
}

/** A client: one namespace per catalogue resource plus the generic entry points. */
export type Client = Namespace<Catalogue> & ClientCore;
