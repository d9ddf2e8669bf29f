// Reading requests and writing responses with node:http, kept free of per-request setup.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../errors.js';

/** Largest request body accepted (10 MB); more is a 413. */
export const MAX_BODY = 10 * 1024 * 1024;

/** Query values: repeated keys become arrays. */
export type Query = Record<string, string | string[]>;

const EMPTY = Buffer.alloc(0);

/** The bodies read and written per request, for the record (weak: gone with the request). */
export const seenBodies = new WeakMap<IncomingMessage | ServerResponse, Buffer | string>();

/** Reads the whole body, refusing more than MAX_BODY bytes with a 413. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] === undefined) return Promise.resolve(EMPTY);
  if (declared !== undefined && Number(declared) > MAX_BODY) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return reject(tooLarge());
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      seenBodies.set(req, body);
      resolve(body);
    });
    req.on('error', reject);
  });
}

function tooLarge(): HttpError {
  return new HttpError(413, `Request body is larger than the limit of ${MAX_BODY / 1024 / 1024} MB`);
}

/** Parses a JSON body; anything but an object is a 400 naming the problem. */
export function parseJson(buf: Buffer): Record<string, unknown> {
  if (buf.length === 0) return {};
  let value: unknown;
  try {
    const text = buf.toString('utf8');
    // `__proto__` is never a real field; dropped here so no later step (validation, merge) meets it.
    value = text.includes('"__proto__"') ? JSON.parse(text, (key, v: unknown) => (key === '__proto__' ? undefined : v)) : JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `Malformed JSON in request body: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** Parses a query string into single values and arrays for repeated keys. */
export function parseQuery(qs: string): Query {
  const out: Query = {};
  if (!qs) return out;
  for (const [key, value] of new URLSearchParams(qs)) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

/** Writes a JSON response (CORS headers, when allowed, are set earlier by the CorsPolicy). */
export function sendJson(res: ServerResponse, status: number, data: unknown, extra?: Record<string, string>): void {
  const text = data === undefined ? '' : JSON.stringify(data);
  seenBodies.set(res, text);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': randomUUID(),
    ...extra,
  });
  res.end(text);
}

/** Writes a text or binary response (CSV exports, recordings). */
export function sendText(res: ServerResponse, status: number, text: string | Buffer, contentType: string): void {
  seenBodies.set(res, /^(text\/|application\/(json|x-ndjson))/.test(contentType) ? text.toString() : `(${Buffer.byteLength(text)} bytes of ${contentType})`);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), 'x-request-id': randomUUID() });
  res.end(text);
}
