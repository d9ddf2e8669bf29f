// Turns (options, operation, path values, params) into a concrete request, without sending it,
// so `--dry-run` shows exactly what would go on the wire.
import { PLATFORM_API } from '../hosts.js';
import { PathValueError } from './errors.js';
import type { Upload } from '../catalogue/index.js';
import type { BodyKind, HttpMethod, QueryValue } from '../catalogue/define.js';
import { VERSION } from '../version.js';
import type { ClientOptions } from './types.js';
import { VoiceError } from '../errors.js';

/** The default platform host. */
export const DEFAULT_BASE_URL = PLATFORM_API;

/** The parts of an operation a request is built from. */
export interface OpLike {
  method: HttpMethod;
  path: string;
  auth?: 'bearer' | 'none' | undefined;
  body?: BodyKind | undefined;
  /** Form field of the uploaded file(s) for multipart operations; default `file`. */
  fileField?: string | undefined;
  /** `binary` when the answer is a file read as bytes. */
  response?: 'json' | 'binary' | undefined;
}

/** A request ready to send. */
export interface BuiltRequest {
  method: HttpMethod;
  url: string;
  /** Every header that will be sent, including the real Authorization (mask it before showing). */
  headers: Record<string, string>;
  /** The JSON text, or the Upload for multipart (assembled into form data when sent). */
  body?: string | Upload | undefined;
  bodyKind: BodyKind;
  /** Form field the upload's file goes in (multipart only). */
  fileField?: string | undefined;
  /** The answer is a file: read as bytes, and redirects to where it is stored are followed. */
  binary?: boolean | undefined;
}

type Query = Record<string, QueryValue | null | undefined | object>;

function isBrowser(): boolean {
  const g = globalThis as { document?: unknown; importScripts?: unknown };
  return typeof g.document !== 'undefined' || typeof g.importScripts === 'function';
}

interface Template {
  /** Literal pieces around the path values; one more than `names`. */
  pieces: string[];
  names: string[];
}

const templates = new Map<string, Template>();

function compile(template: string): Template {
  let t = templates.get(template);
  if (!t) {
    const split = template.split(/\{([^}]+)\}/);
    t = { pieces: split.filter((_, i) => i % 2 === 0), names: split.filter((_, i) => i % 2 === 1) };
    templates.set(template, t);
  }
  return t;
}

/** Fills `{name}` segments in order, encoding each value; refuses a missing or empty one. */
export function fillPath(template: string, values: readonly unknown[], label?: string): string {
  return fill(template, values, label);
}

function labelOf(template: string, label: string | undefined, method: string | undefined): string {
  return label ?? (method ? `${method} ${template}` : template);
}

/** fillPath naming the operation by method and path in its errors, built only when one is thrown. */
function fill(template: string, values: readonly unknown[], label?: string, method?: string): string {
  const { pieces, names } = compile(template);
  if (values.length > names.length) throw new PathValueError(`Too many path values for ${labelOf(template, label, method)}: expected ${names.length}, got ${values.length}`);
  let path = pieces[0] as string;
  for (let i = 0; i < names.length; i++) {
    const value = values[i];
    if (typeof value !== 'string' && typeof value !== 'number') throw new PathValueError(`Missing path value "${names[i]}" for ${labelOf(template, label, method)}`);
    const text = String(value);
    if (text.trim() === '') throw new PathValueError(`Empty path value "${names[i]}" for ${labelOf(template, label, method)}`);
    path += encodeURIComponent(text) + (pieces[i + 1] as string);
  }
  return path;
}

function queryPart(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** Encodes a query object: arrays as repeated keys, dates as ISO strings, null/undefined skipped. */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    const name = encodeURIComponent(key);
    if (Array.isArray(value)) {
      for (const v of value) if (v !== undefined && v !== null) parts.push(`${name}=${encodeURIComponent(queryPart(v))}`);
    } else {
      parts.push(`${name}=${encodeURIComponent(queryPart(value))}`);
    }
  }
  return parts.join('&');
}

/** Where a client keeps its precomputed base headers (they are copied per request). */
export const HEADER_CACHE = Symbol('voice.headers');

interface Cached {
  [HEADER_CACHE]?: Record<'bearer' | 'none', Record<string, string>>;
}

/** Precomputes the base headers of a client whose options will not change. */
export function cacheHeaders(config: ClientOptions): void {
  (config as Cached)[HEADER_CACHE] = { bearer: baseHeaders(config, 'bearer'), none: baseHeaders(config, 'none') };
}

/** The headers every request of a client carries, before per-request ones. */
export function baseHeaders(config: ClientOptions, auth: 'bearer' | 'none'): Record<string, string> {
  const cached = (config as Cached)[HEADER_CACHE];
  if (cached) return { ...cached[auth] };
  const headers: Record<string, string> = { accept: 'application/json' };
  const ua = config.userAgent ?? (isBrowser() ? undefined : `voice/${VERSION}`);
  if (ua) headers['user-agent'] = ua;
  if (config.headers) for (const k of Object.keys(config.headers)) headers[k.toLowerCase()] = config.headers[k] as string;
  if (auth === 'bearer' && config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return headers;
}

/** Joins the base URL and a filled path. */
export function joinUrl(baseUrl: string | undefined, path: string, query?: string): string {
  let base = baseUrl ?? DEFAULT_BASE_URL;
  if (base.endsWith('/')) base = base.replace(/\/+$/, '');
  return `${base}${path.startsWith('/') ? path : `/${path}`}${query ? `?${query}` : ''}`;
}

/**
 * Builds the request for an operation without sending it. `params` is the query for operations
 * without a body, else the body; `query` is the query of an operation that has both.
 */
export function buildRequest(config: ClientOptions, op: OpLike, pathValues: readonly unknown[], params?: unknown, query?: Query): BuiltRequest {
  const kind: BodyKind = op.body ?? (op.method === 'GET' || op.method === 'DELETE' ? 'none' : 'json');
  const path = fill(op.path, pathValues, undefined, op.method);
  const qs = kind === 'none' ? encodeQuery(params as Query | undefined) : encodeQuery(query);
  // A fresh object per request: dispatchers (undici's proxy agent) and custom transports may add to it.
  const headers = baseHeaders(config, op.auth ?? 'bearer');
  const built: BuiltRequest = { method: op.method, url: joinUrl(config.baseUrl, path, qs), headers, bodyKind: kind };
  if (op.response === 'binary') {
    headers.accept = '*/*';
    built.binary = true;
  }
  if (kind === 'json' && params !== undefined) {
    headers['content-type'] = 'application/json';
    built.body = JSON.stringify(params);
  } else if (kind === 'multipart') {
    if (!params || typeof params !== 'object' || !('file' in params)) {
      throw new VoiceError(`${op.method} ${op.path} needs an upload: { file, filename?, contentType?, ...fields }`);
    }
    built.body = params as Upload;
    built.fileField = op.fileField ?? 'file';
  }
  return built;
}
