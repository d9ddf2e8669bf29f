// The seam between the client's logic (retries, errors, pages) and the wire. The browser uses
// fetch; Node plugs in a pooled transport that skips building Response objects on the hot path.
// Timeouts belong to the transport because the cheapest way to enforce one differs: an
// AbortSignal costs ~20% of loopback throughput under undici, which has native timeouts.
import { TimeoutError } from './errors.js';

/** One HTTP exchange as the transport sees it. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A JSON string, or form data for multipart uploads. */
  body?: string | FormData | undefined;
  /** The caller's signal, when there is one. */
  signal?: AbortSignal | undefined;
  /** Give up (rejecting with TimeoutError) when no answer comes within this many ms. */
  timeoutMs?: number | undefined;
  /** Read the body as bytes (recordings); `bytes()` then gives them and `text()` decodes them. */
  binary?: boolean | undefined;
}

/** An answer with its body not yet read. */
export interface TransportResponse {
  status: number;
  statusText: string;
  /** A header value (case-insensitive name), or null. */
  header(name: string): string | null;
  /** Reads the whole body as text. */
  text(): Promise<string>;
  /** Reads the whole body as bytes; present when the request asked for `binary`. */
  bytes?(): Promise<Uint8Array>;
  /** The answer as a standard Response; `text` is the body already read. */
  toResponse(text: string): Response;
  /** The headers as a standard Headers object. */
  headers(): Headers;
}

/** Sends one request; rejects only when no response arrived. */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

/** A transport over a fetch implementation (the browser default, or a caller's own fetch). */
export function fetchTransport(fetchImpl?: typeof fetch): Transport {
  return async (req) => {
    const f = fetchImpl ?? globalThis.fetch;
    const ctl = new AbortController();
    const onAbort = (): void => ctl.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const ms = req.timeoutMs;
    const timer =
      ms && ms > 0 && Number.isFinite(ms)
        ? setTimeout(() => {
            timedOut = true;
            ctl.abort();
          }, ms)
        : undefined;
    const done = (): void => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: unknown): never => {
      done();
      throw timedOut ? new TimeoutError(`No answer within ${ms} ms`, { cause: error }) : error;
    };
    const res = await f(req.url, { method: req.method, headers: req.headers, body: req.body ?? null, signal: ctl.signal }).catch(fail);
    // The timeout also covers reading the body; text() is always called once by the client.
    const bytes = req.binary
      ? res.arrayBuffer().then((b) => {
          done();
          return new Uint8Array(b);
        }, fail)
      : undefined;
    const text = bytes
      ? bytes.then((b) => new TextDecoder().decode(b))
      : res.text().then((t) => {
          done();
          return t;
        }, fail);
    text.catch(() => undefined);
    return {
      status: res.status,
      statusText: res.statusText,
      header: (name) => res.headers.get(name),
      text: () => text,
      ...(bytes ? { bytes: () => bytes } : {}),
      toResponse: () => res,
      headers: () => res.headers,
    };
  };
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Builds a Response from parts, for transports that do not produce one. */
export function makeResponse(status: number, statusText: string, headers: Headers, text: string): Response {
  return new Response(NULL_BODY.has(status) ? null : text, { status, statusText, headers });
}
