// Posts one server message the way the platform does (JSON, with the server's headers, within its
// timeout) and reports what came back: the one sender behind the emulator's deliveries,
// `voice trigger` and `voice listen`. Node only (core's outbound HTTP, core/http): kept out of
// core/messages/index.ts. The answer is read whole by core/http/text.ts, the REST client's own hot
// path, on the pool the model step shares.
import { STATUS_CODES } from 'node:http';
import { headerOf, postPool } from '../http/undici.js';
import { requestText } from '../http/text.js';

/** What a server did with one posted message. */
export interface PostResult {
  url: string;
  /** HTTP status, absent when no answer came. */
  status?: number;
  statusText?: string;
  /** Milliseconds from sending to the whole answer (or to the failure). */
  ms: number;
  /** The answer parsed as JSON; absent when empty or not JSON. */
  answer?: unknown;
  /** The raw answer text. */
  text: string;
  contentType?: string;
  /** Why there is no usable answer: `timeout`, `connection` (with `reason`), `not-json`. */
  failure?: 'timeout' | 'connection' | 'not-json';
  reason?: string;
}

/** How to post. */
export interface PostOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Aborts the request (a reset, Ctrl-C). */
  signal?: AbortSignal;
}

/**
 * Loads the HTTP client now instead of on the first post: compiling it takes tens of milliseconds
 * of the event loop, which a long-running server (`voice dev`) would rather spend before its first
 * call than in the middle of it.
 */
export function preloadPoster(): Promise<void> {
  return postPool().then(() => undefined);
}

/** Why a connection gave no answer, for people. */
export function connectionReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as NodeJS.ErrnoException).code ?? cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused (is your server running on that port?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer';
  return cause?.message ?? (error as Error).message ?? String(error);
}

/** Sends `body` (JSON text) to `url` and waits for the answer or the timeout. Never throws. */
export async function postServerMessage(url: string, body: string, opts: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  try {
    const { dispatcher, parseHeaders } = await postPool();
    const headers = { 'content-type': 'application/json', ...opts.headers };
    const res = await requestText(dispatcher, parseHeaders, { url, method: 'POST', headers, body, signal: opts.signal, timeoutMs: opts.timeoutMs });
    const { status, text } = res;
    const contentType = headerOf(res.headers, 'content-type');
    const result: PostResult = { url, status, statusText: STATUS_CODES[status] ?? '', ms: elapsed(), text, ...(contentType ? { contentType } : {}) };
    if (text.trim() !== '') {
      try {
        result.answer = JSON.parse(text);
      } catch {
        result.failure = 'not-json';
      }
    }
    return result;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return { url, ms: elapsed(), text: '', failure: 'timeout', reason: `no answer within ${opts.timeoutMs / 1000} s` };
    return { url, ms: elapsed(), text: '', failure: 'connection', reason: connectionReason(error) };
  }
}
