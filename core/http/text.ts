// Budget: client throughput on loopback >= 0.95x raw `undici.request`. Measured gain: 640 k -> 318 k
// instructions per GET (callgrind; raw `undici.request` 467 k).
// Re-measured 2026-11-26 on two shared cores (load average 17 to 24), alternating runs: CPU per
// request at concurrency 32 (20,000 requests after 3,000, 4 runs each) GET 31 to 37 µs with this
// handler, 60 to 78 µs through undici.request's body stream, raw undici.request 41 to 60 µs; POST
// 39 to 47, 67 to 78 and 53 to 71 µs. `npm run bench -- client-throughput` (ours against
// undici.request, GET c=1, GET c=32, POST c=1, POST c=32): with it 1.28, 1.29, 0.72, 0.86x and
// 1.37, 2.03, 1.03, 1.45x; without it 0.76, 0.59, 0.86, 0.84x and 1.01, 0.92, 0.91, 0.74x. Kept.
// The Node transport's hot path: a whole text (JSON) answer read straight from undici's
// dispatcher. `undici.request` wraps every answer in a Readable stream that `body.text()` then
// drains; this handler keeps the chunks and decodes them once, which is most of the client's
// per-request CPU over raw undici. Same connection pool, same timeouts (undici's own), same
// abort signal; binary answers and uploads keep using `undici.request`.
import type * as UndiciNs from 'undici';
import type { Pool, RawHeaders } from './undici.js';
import { VoiceError } from '../errors.js';

/** What the handler hands back once the whole answer has arrived. */
export interface TextAnswer {
  status: number;
  statusText: string;
  headers: RawHeaders;
  text: string;
}

/** A request in the shape `Dispatcher.dispatch` takes, split from a URL. */
export interface TextRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

function aborted(signal: AbortSignal): unknown {
  return signal.reason ?? new VoiceError('This operation was aborted');
}

/** A legacy-style dispatch handler (undici's own request() uses the same callbacks). */
class TextHandler {
  status = 0;
  statusText = '';
  headers: RawHeaders = {};
  chunks: Buffer[] = [];
  length = 0;
  abort: ((reason: unknown) => void) | undefined;
  reason: unknown;
  onAbort: (() => void) | undefined;

  constructor(
    private readonly parse: Pool['parseHeaders'],
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (answer: TextAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    if (signal) {
      if (signal.aborted) this.reason = aborted(signal);
      else {
        this.onAbort = () => {
          this.reason = aborted(signal);
          this.abort?.(this.reason);
        };
        signal.addEventListener('abort', this.onAbort, { once: true });
      }
    }
  }

  onConnect(abort: (reason: unknown) => void): void {
    if (this.reason !== undefined) abort(this.reason);
    else this.abort = abort;
  }

  onHeaders(status: number, raw: Buffer[], _resume: () => void, statusText: string): boolean {
    if (status < 200) return true;
    this.status = status;
    this.statusText = statusText ?? '';
    this.headers = this.parse(raw);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.length += chunk.length;
    return true;
  }

  onComplete(): void {
    this.done();
    const { chunks, length } = this;
    const all = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
    // As undici's body.text(): UTF-8, a byte order mark skipped.
    const start = all.length > 2 && all[0] === 0xef && all[1] === 0xbb && all[2] === 0xbf ? 3 : 0;
    this.resolve({ status: this.status, statusText: this.statusText, headers: this.headers, text: all.toString('utf8', start) });
  }

  onError(error: unknown): void {
    this.done();
    this.reject(error);
  }

  onUpgrade(): void {
    this.onError(new VoiceError('unexpected protocol upgrade'));
  }

  private done(): void {
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
    this.onAbort = undefined;
  }
}

/** Where the origin of an absolute http(s) URL ends, or -1 when it needs a full URL parse. */
function originEnd(url: string): number {
  const scheme = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
  if (scheme < 0) return -1;
  let end = url.length;
  for (let i = scheme; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) {
      end = i;
      break;
    }
    // userinfo, IPv6 literals, escapes, upper case and spaces: leave them to the URL parser.
    if (c === 0x40 || c === 0x5b || c === 0x25 || c === 0x5c || c <= 0x20 || (c >= 0x41 && c <= 0x5a)) return -1;
  }
  // A default port is dropped by the URL parser (and so from undici's pool key): leave it to it.
  const authority = url.slice(scheme, end);
  if (authority.endsWith(scheme === 7 ? ':80' : ':443')) return -1;
  return end;
}

/** Splits a URL into undici's origin and path (path with its query, without a fragment). */
export function splitUrl(url: string): { origin: string; path: string } {
  const end = originEnd(url);
  if (end > 0 && url.indexOf('#', end) < 0) {
    const path = url.slice(end);
    return { origin: url.slice(0, end), path: path === '' ? '/' : path[0] === '?' ? `/${path}` : path };
  }
  const u = new URL(url);
  return { origin: u.origin, path: `${u.pathname}${u.search}` };
}

/** Sends one request through the dispatcher and resolves with the whole answer as text. */
export function requestText(dispatcher: UndiciNs.Dispatcher, parse: Pool['parseHeaders'], req: TextRequest): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    const { origin, path } = splitUrl(req.url);
    const handler = new TextHandler(parse, req.signal, resolve, reject);
    try {
      const opts = { origin, path, method: req.method, headers: req.headers, body: req.body, headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs };
      dispatcher.dispatch(opts as UndiciNs.Dispatcher.DispatchOptions, handler as unknown as UndiciNs.Dispatcher.DispatchHandler);
    } catch (error) {
      handler.onError(error);
    }
  });
}
