// Turns (options, operation, path values, params) into a concrete request, without sending it,
// so `--dry-run` shows exactly what would go on the wire.
import type { Upload } from '../catalogue/index.js';
import type { BodyKind, HttpMethod, QueryValue } from '../catalogue/define.js';
import { VERSION } from '../version.js';
import type { ClientOptions } from './types.js';

/** The default platform host. */
export const DEFAULT_BASE_URL = 'https://api.vapi.ai';

/** The parts of an operation a request is built from. */
export interface OpLike {
  method: HttpMethod;
  path: string;
  auth?: 'bearer' | 'none' | undefined;
  body?: BodyKind | undefined;
  /** Form field of the uploaded file(s) for multipart operations; default `file`. */
  fileField?: string | undefined;
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
}

type Query = Record<string, QueryValue | null | undefined | object>;

function isBrowser(): boolean {
  const g = globalThis as { document?: unknown; importScripts?: unknown };
  return typeof g.document !== 'undefined' || typeof g.importScripts === 'function';
}

/** Fills `{name}` segments in order, encoding each value; refuses a missing or empty one. */
export function fillPath(template: string, values: readonly unknown[], label = template): string {
  let i = 0;
  const path = template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = values[i++];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new TypeError(`Missing path value "${name}" for ${label}`);
    }
    const text = String(value);
    if (text.trim() === '') throw new TypeError(`Empty path value "${name}" for ${label}`);
    return encodeURIComponent(text);
  });
  if (values.length > i) throw new TypeError(`Too many path values for ${label}: expected ${i}, got ${values.length}`);
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

/** The headers every request of a client carries, before per-request ones. */
export function baseHeaders(config: ClientOptions, auth: 'bearer' | 'none'): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const ua = config.userAgent ?? (isBrowser() ? undefined : `voice/${VERSION}`);
  if (ua) headers['user-agent'] = ua;
  if (config.headers) for (const k of Object.keys(config.headers)) headers[k.toLowerCase()] = config.headers[k] as string;
  if (auth === 'bearer' && config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return headers;
}

/** Joins the base URL and a filled path. */
export function joinUrl(baseUrl: string | undefined, path: string, query?: string): string {
  const base = (baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  return `${base}${path.startsWith('/') ? path : `/${path}`}${query ? `?${query}` : ''}`;
}

/** Builds the request for an operation without sending it. */
export function buildRequest(config: ClientOptions, op: OpLike, pathValues: readonly unknown[], params?: unknown): BuiltRequest {
  const kind: BodyKind = op.body ?? (op.method === 'GET' || op.method === 'DELETE' ? 'none' : 'json');
  const path = fillPath(op.path, pathValues, `${op.method} ${op.path}`);
  const query = kind === 'none' ? encodeQuery(params as Query | undefined) : '';
  const headers = baseHeaders(config, op.auth ?? 'bearer');
  const built: BuiltRequest = { method: op.method, url: joinUrl(config.baseUrl, path, query), headers, bodyKind: kind };
  if (kind === 'json' && params !== undefined) {
    headers['content-type'] = 'application/json';
    built.body = JSON.stringify(params);
  } else if (kind === 'multipart') {
    if (!params || typeof params !== 'object' || !('file' in params)) {
      throw new TypeError(`${op.method} ${op.path} needs an upload: { file, filename?, contentType?, ...fields }`);
    }
    built.body = params as Upload;
    built.fileField = op.fileField ?? 'file';
  }
  return built;
}
