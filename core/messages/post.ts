// Posts one server message the way the platform does (JSON, with the server's headers, within its
// timeout) and reports what came back: the one sender behind the emulator's deliveries,
// `voice trigger` and `voice listen`. Node only (undici): kept out of core/messages/index.ts.
import { STATUS_CODES } from 'node:http';
import type { Agent, request as Request } from 'undici';

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

// One keep-alive pool for every post: undici's request is far lighter than fetch at hundreds a
// second. Loaded on the first post, so a process that never posts never loads it.
let undici: Promise<{ pool: Agent; request: typeof Request }> | undefined;
function client(): NonNullable<typeof undici> {
  undici ??= import('undici').then((m) => {
    // A bundle may hand the CommonJS module over as `default` only (the CLI's esbuild bundle does).
    const { Agent, request } = typeof m.Agent === 'function' ? m : (m as unknown as { default: typeof m }).default;
    return { pool: new Agent({ keepAliveTimeout: 10_000, connections: 256 }), request };
  });
  return undici;
}

/**
 * Loads the HTTP client now instead of on the first post: compiling it takes tens of milliseconds
 * of the event loop, which a long-running server (`voice dev`) would rather spend before its first
 * call than in the middle of it.
 */
export function preloadPoster(): Promise<void> {
  return client().then(() => undefined);
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
    const { pool, request } = await client();
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body,
      dispatcher: pool,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const text = await res.body.text();
    const header = res.headers['content-type'];
    const contentType = Array.isArray(header) ? header[0] : header;
    const result: PostResult = { url, status: res.statusCode, statusText: STATUS_CODES[res.statusCode] ?? '', ms: elapsed(), text, ...(contentType ? { contentType } : {}) };
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
