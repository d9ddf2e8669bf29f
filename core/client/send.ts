// Sends a built request: per-attempt timeout (enforced by the transport), the caller's abort
// signal, retries with back-off, and the mapping of failures to the client's error classes.
import type { BuiltRequest } from './build.js';
import { AbortError, ConnectionError, TimeoutError, apiErrorFor } from './errors.js';
import { toFormData } from './multipart.js';
import type { Transport, TransportResponse } from './transport.js';
import type { ClientOptions, RequestOptions, WithResponse } from './types.js';

/** Client settings with defaults applied, as the sender needs them. */
export interface SendSettings extends ClientOptions {
  transport: Transport;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Retry-After values beyond this are not waited for: the caller hears about the 429 instead. */
const MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 8_000;

function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The back-off before retry number `attempt` (0-based): doubling from `base`, with jitter. */
export function backoffMs(attempt: number, base: number): number {
  return Math.min(MAX_BACKOFF_MS, base * 2 ** attempt) * (1 - Math.random() * 0.25);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Parses a body: JSON when it says (or looks like) JSON, else the text; empty is undefined. */
export function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  const ct = contentType ?? '';
  if (ct.includes('json') || (!ct && (text[0] === '{' || text[0] === '['))) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The data with its response; headers and Response are built only when read. */
class Answer<T> implements WithResponse<T> {
  readonly status: number;
  readonly requestId: string | undefined;
  #headers: Headers | undefined;
  #response: Response | undefined;

  constructor(
    private readonly res: TransportResponse,
    /** The body as read (the bytes of a binary answer are in `data`). */
    private readonly text: string,
    readonly data: T,
  ) {
    this.status = res.status;
    this.requestId = res.header('x-request-id') ?? undefined;
  }

  get headers(): Headers {
    this.#headers ??= this.res.headers();
    return this.#headers;
  }

  get response(): Response {
    this.#response ??= this.res.toResponse(this.text);
    return this.#response;
  }
}

function failure(cause: unknown, req: BuiltRequest, ms: number, o: RequestOptions): Error {
  if (o.signal?.aborted) return new AbortError(`Request aborted: ${req.method} ${req.url}`, { cause });
  if (cause instanceof TimeoutError) return new TimeoutError(`Request timed out after ${ms} ms: ${req.method} ${req.url}`, { cause });
  const e = cause as { cause?: { message?: string; code?: string }; message?: string; code?: string };
  const reason = e.cause?.message ?? e.message;
  return new ConnectionError(`Connection error: ${reason} (${req.method} ${req.url})`, { cause, code: e.code ?? e.cause?.code });
}

const MAX_REDIRECTS = 5;

/** Where a 3xx answer points, resolved against the request URL; undefined for anything else. */
function redirectOf(res: TransportResponse, from: string): string | undefined {
  if (res.status < 300 || res.status > 399 || res.status === 304) return undefined;
  const location = res.header('location');
  return location ? new URL(location, from).toString() : undefined;
}

/**
 * Follows the redirects of a file download (the platform answers with a 302 to where the file
 * is stored). The key goes only to the API's own origin, never to the storage host.
 */
async function follow(s: SendSettings, url: string, headers: Record<string, string>, signal: AbortSignal | undefined, ms: number): Promise<TransportResponse> {
  const origin = new URL(s.baseUrl ?? url).origin;
  let at = url;
  for (let hop = 0; ; hop++) {
    const sameOrigin = new URL(at).origin === origin;
    const { authorization: _key, ...rest } = headers;
    const res = await s.transport({ method: 'GET', url: at, headers: sameOrigin ? headers : rest, signal, timeoutMs: ms, binary: true });
    const next = redirectOf(res, at);
    if (!next) return res;
    if (hop + 1 >= MAX_REDIRECTS) throw new ConnectionError(`Too many redirects fetching ${url}`);
    await res.text().catch(() => undefined);
    at = next;
  }
}

const NO_OPTIONS: RequestOptions = Object.freeze({});

/** Sends a built request with retries and returns the parsed data with its response. */
export async function send<T>(s: SendSettings, req: BuiltRequest, o: RequestOptions = NO_OPTIONS): Promise<WithResponse<T>> {
  let headers = req.headers;
  if (o.headers) {
    headers = { ...headers };
    for (const k of Object.keys(o.headers)) headers[k.toLowerCase()] = o.headers[k] as string;
  }
  let body: string | FormData | undefined;
  if (req.bodyKind === 'multipart' && req.body !== undefined && typeof req.body !== 'string') {
    body = await toFormData(req.body, s.readPath, req.fileField);
  } else if (typeof req.body === 'string') {
    body = req.body;
  }
  const retries = Math.max(0, o.maxRetries ?? s.maxRetries);
  const mayRetry = IDEMPOTENT.has(req.method) || o.retryNonIdempotent === true;
  const ms = o.timeoutMs ?? s.timeoutMs;
  const signal = o.signal;
  for (let n = 0; ; n++) {
    if (signal?.aborted) throw new AbortError(`Request aborted: ${req.method} ${req.url}`);
    const canRetry = mayRetry && n < retries;
    let res: TransportResponse;
    let text: string;
    let bytes: Uint8Array | undefined;
    try {
      res = await s.transport({ method: req.method, url: req.url, headers, body, signal, timeoutMs: ms, binary: req.binary });
      if (req.binary) {
        const moved = redirectOf(res, req.url);
        if (moved) {
          await res.text().catch(() => undefined);
          res = await follow(s, moved, headers, signal, ms);
        }
      }
      if (req.binary && res.status >= 200 && res.status < 300) {
        bytes = res.bytes ? await res.bytes() : new TextEncoder().encode(await res.text());
        text = '';
      } else {
        text = await res.text();
      }
    } catch (cause) {
      const error = failure(cause, req, ms, o);
      if (canRetry && error instanceof ConnectionError) {
        await sleep(backoffMs(n, s.retryDelayMs), signal);
        continue;
      }
      throw error;
    }
    if (res.status >= 200 && res.status < 300) {
      return new Answer(res, text, (bytes ?? parseBody(text, res.header('content-type'))) as T);
    }
    if (canRetry && retryableStatus(res.status)) {
      const asked = retryAfterMs(res.header('retry-after'));
      if (asked === undefined || asked <= MAX_RETRY_AFTER_MS) {
        await sleep(asked ?? backoffMs(n, s.retryDelayMs), signal);
        continue;
      }
    }
    const answered = res;
    throw apiErrorFor({
      status: res.status,
      statusText: res.statusText,
      body: parseBody(text, res.header('content-type')),
      response: () => answered.toResponse(text),
      requestId: res.header('x-request-id') ?? undefined,
    });
  }
}
