// Posts one server message the way the platform does (JSON, with the server's headers, within
// its timeout) and reports what came back: status, latency, the answer, or why there was none.

/** What a server did with one message. */
export interface Delivery {
  url: string;
  /** HTTP status, absent when no answer came. */
  status?: number;
  statusText?: string;
  /** Milliseconds from sending to the whole answer (or to the failure). */
  ms: number;
  /** The answer parsed as JSON; absent when empty or not JSON. */
  answer?: unknown;
  /** The raw answer text (kept when it is not JSON). */
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
  /** Aborts the request (e.g. on Ctrl-C). */
  signal?: AbortSignal;
}

function connectionReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused (is your server running on that port?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer';
  return cause?.message ?? (error as Error).message ?? String(error);
}

/** Sends `body` as JSON to `url` and waits for the answer or the timeout. Never throws. */
export async function postJson(url: string, body: string, opts: PostOptions): Promise<Delivery> {
  const started = performance.now();
  const timer = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timer, opts.signal]) : timer;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body,
      signal,
      redirect: 'manual',
    });
    const text = await res.text();
    const ms = performance.now() - started;
    const contentType = res.headers.get('content-type') ?? undefined;
    const delivery: Delivery = { url, status: res.status, statusText: res.statusText, ms, text, ...(contentType ? { contentType } : {}) };
    if (text.trim() !== '') {
      try {
        delivery.answer = JSON.parse(text);
      } catch {
        delivery.failure = 'not-json';
      }
    }
    return delivery;
  } catch (error) {
    const ms = performance.now() - started;
    if (timer.aborted) return { url, ms, text: '', failure: 'timeout', reason: `no answer within ${opts.timeoutMs / 1000} s` };
    return { url, ms, text: '', failure: 'connection', reason: connectionReason(error) };
  }
}
