// Reading requests and writing responses with node:http, kept free of per-request setup.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './errors.js';

/** Largest request body accepted (10 MB); more is a 413. */
export const MAX_BODY = 10 * 1024 * 1024;

/** Query values: repeated keys become arrays. */
export type Query = Record<string, string | string[]>;

const EMPTY = Buffer.alloc(0);

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
    req.on('end', () => (over ? reject(tooLarge()) : resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size))));
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

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, x-request-id',
  'access-control-max-age': '600',
};

/** Writes a JSON response (browsers may call the emulator from another port, hence CORS). */
export function sendJson(res: ServerResponse, status: number, data: unknown, extra?: Record<string, string>): void {
  const text = data === undefined ? '' : JSON.stringify(data);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'x-request-id',
    'x-request-id': randomUUID(),
    ...extra,
  });
  res.end(text);
}

/** Writes a text response (CSV exports). */
export function sendText(res: ServerResponse, status: number, text: string, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), 'access-control-allow-origin': '*', 'x-request-id': randomUUID() });
  res.end(text);
}

/** Answers a CORS preflight. */
export function sendPreflight(res: ServerResponse): void {
  res.writeHead(204, CORS);
  res.end();
}
