// Node's default transport. undici gives keep-alive pooling and proxy support, but importing it
// costs more than a one-shot CLI command may spend (~150 ms against a ~50 ms `node -e 0`), so:
// with proxy variables set, undici's EnvHttpProxyAgent carries every request (it honours
// HTTPS_PROXY, HTTP_PROXY and NO_PROXY); without them, requests start on node:http's keep-alive
// agent and move to undici's pooled Agent once the process shows sustained use (several requests,
// or requests in parallel), loading undici in the background meanwhile.
// On undici, JSON and text answers skip undici.request's body stream (undici-text.ts).
import type * as HttpNs from 'node:http';
import type * as HttpsNs from 'node:https';
import type * as UndiciNs from 'undici';
import { TimeoutError } from './errors.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';
import { makeResponse } from './transport.js';
import { requestText } from './undici-text.js';
import type { TextAnswer } from './undici-text.js';

type Undici = typeof UndiciNs;
type Http = typeof HttpNs;
type RawHeaders = Record<string, string | string[] | undefined>;

/** After this many requests in one process the pooled undici transport is loaded. */
export const UPGRADE_AFTER = 8;
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** True when a proxy environment variable is set, so requests must go through undici's proxy agent. */
export function proxyConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return PROXY_VARS.some((name) => Boolean(env[name]));
}

interface Pool {
  request: Undici['request'];
  dispatcher: UndiciNs.Dispatcher;
  parseHeaders: (raw: Buffer[]) => RawHeaders;
}

let pool: Pool | undefined;
let loading: Promise<Pool | undefined> | undefined;
let http: { mod: Http; agent: HttpNs.Agent } | undefined;
let https: { mod: typeof HttpsNs; agent: HttpsNs.Agent } | undefined;
let sent = 0;
let inFlight = 0;

function loadPool(): Promise<Pool | undefined> {
  loading ??= import('undici')
    .then((m) => {
      // Bundled (dist/cli), undici is a CommonJS module: its exports sit on `default`.
      const u = 'Agent' in m ? m : (m as unknown as { default: typeof m }).default;
      const dispatcher = proxyConfigured() ? new u.EnvHttpProxyAgent() : new u.Agent({ keepAliveTimeout: 4_000 });
      pool = { request: u.request, dispatcher, parseHeaders: u.util.parseHeaders as Pool['parseHeaders'] };
      return pool;
    })
    // Without undici the plain http transport carries on; a failed load must never crash a run.
    .catch(() => undefined);
  return loading;
}

function headerOf(headers: RawHeaders, name: string): string | null {
  const v = headers[name.toLowerCase()];
  if (v === undefined) return null;
  return Array.isArray(v) ? v.join(', ') : v;
}

function toHeaders(raw: RawHeaders): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v)) for (const x of v) h.append(k, x);
    else if (v !== undefined) h.append(k, v);
  }
  return h;
}

/** A response from either Node path; a class so the hot path allocates no closures. */
class NodeResponse implements TransportResponse {
  constructor(
    readonly status: number,
    readonly statusText: string,
    private readonly raw: RawHeaders,
    private readonly read: () => Promise<string>,
    private readonly readBytes?: () => Promise<Uint8Array>,
  ) {}

  header(name: string): string | null {
    return headerOf(this.raw, name);
  }

  text(): Promise<string> {
    return this.read();
  }

  bytes(): Promise<Uint8Array> {
    return this.readBytes ? this.readBytes() : this.read().then((t) => new TextEncoder().encode(t));
  }

  headers(): Headers {
    return toHeaders(this.raw);
  }

  toResponse(body: string): Response {
    return makeResponse(this.status, this.statusText, toHeaders(this.raw), body);
  }
}

/** Serialises form data into a content type and a byte stream (a file-backed Blob streams from disk). */
function serialise(form: FormData): { contentType: string; stream: ReadableStream<Uint8Array> } {
  const res = new Response(form);
  return { contentType: res.headers.get('content-type') as string, stream: res.body as ReadableStream<Uint8Array> };
}

const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function undiciError(error: unknown, ms: number | undefined): unknown {
  if (UNDICI_TIMEOUTS.has((error as { code?: string }).code ?? '')) return new TimeoutError(`No answer within ${ms} ms`, { cause: error });
  return error;
}

function limit(ms: number | undefined): number {
  return ms && ms > 0 && Number.isFinite(ms) ? Math.ceil(ms) : 0;
}

/** The common undici answer (JSON or text): no closures per request. */
class UndiciResponse extends NodeResponse {
  constructor(
    status: number,
    raw: RawHeaders,
    private readonly body: UndiciNs.Dispatcher.ResponseData['body'],
    private readonly ms: number | undefined,
  ) {
    super(status, '', raw, UndiciResponse.prototype.text);
  }

  override text(): Promise<string> {
    return this.body.text().catch((error: unknown) => Promise.reject(undiciError(error, this.ms)));
  }
}

/** A text answer already read whole (the common JSON case). */
class TextResponse extends NodeResponse {
  constructor(answer: TextAnswer) {
    super(answer.status, '', answer.headers, TextResponse.prototype.text);
    this.body = Promise.resolve(answer.text);
  }

  private readonly body: Promise<string>;

  override text(): Promise<string> {
    return this.body;
  }
}

function viaUndici(p: Pool, req: TransportRequest): Promise<TransportResponse> {
  if (!req.binary && (req.body === undefined || typeof req.body === 'string')) {
    const ms = limit(req.timeoutMs);
    const text = { url: req.url, method: req.method, headers: req.headers, body: req.body, signal: req.signal, timeoutMs: ms };
    return requestText(p.dispatcher, p.parseHeaders, text).then(
      (answer) => new TextResponse(answer),
      (error: unknown) => Promise.reject(undiciError(error, req.timeoutMs)),
    );
  }
  return viaUndiciStream(p, req);
}

/** Uploads and binary answers: undici.request and its body stream. */
async function viaUndiciStream(p: Pool, req: TransportRequest): Promise<TransportResponse> {
  let body: string | ReadableStream<Uint8Array> | undefined;
  let headers = req.headers;
  if (typeof req.body === 'string') body = req.body;
  else if (req.body) {
    const form = serialise(req.body);
    headers = { ...headers, 'content-type': form.contentType };
    body = form.stream;
  }
  // undici's own timeouts instead of a timer and an AbortSignal: the signal alone costs ~20%
  // of loopback throughput. They bound the wait for headers and each pause in the body.
  const ms = limit(req.timeoutMs);
  let res: UndiciNs.Dispatcher.ResponseData;
  try {
    res = await p.request(req.url, { method: req.method as 'GET', headers, body: body as string, signal: req.signal, dispatcher: p.dispatcher, headersTimeout: ms, bodyTimeout: ms });
  } catch (error) {
    throw undiciError(error, req.timeoutMs);
  }
  const read = res.body;
  if (req.binary) {
    const failed = (error: unknown): Promise<never> => Promise.reject(undiciError(error, req.timeoutMs));
    const bytes = read.arrayBuffer().then((b) => new Uint8Array(b), failed);
    bytes.catch(() => undefined);
    return new NodeResponse(
      res.statusCode,
      '',
      res.headers,
      () => bytes.then((b) => Buffer.from(b).toString('utf8')),
      () => bytes,
    );
  }
  return new UndiciResponse(res.statusCode, res.headers, read, req.timeoutMs);
}

async function loadHttp(secure: boolean): Promise<{ mod: Pick<Http, 'request'>; agent: HttpNs.Agent }> {
  if (secure) {
    if (!https) {
      const mod = await import('node:https');
      https = { mod, agent: new mod.Agent({ keepAlive: true }) };
    }
    return https;
  }
  if (!http) {
    const mod = await import('node:http');
    http = { mod, agent: new mod.Agent({ keepAlive: true }) };
  }
  return http;
}

async function viaHttp(req: TransportRequest): Promise<TransportResponse> {
  const { mod, agent } = await loadHttp(req.url.startsWith('https:'));
  const headers = { ...req.headers };
  let form: ReturnType<typeof serialise> | undefined;
  if (typeof req.body === 'string') headers['content-length'] = String(Buffer.byteLength(req.body));
  else if (req.body) {
    form = serialise(req.body);
    headers['content-type'] = form.contentType;
  }
  const ms = limit(req.timeoutMs);
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    const timeout = (): TimeoutError => new TimeoutError(`No answer within ${ms} ms`);
    const out = mod.request(req.url, { method: req.method, headers, agent, signal: req.signal }, (res) => {
      if (!req.binary) res.setEncoding('utf8');
      // Read eagerly so an error in the body lands on one promise that is always handled.
      const body = new Promise<string | Buffer>((ok, fail) => {
        const ko = (error: unknown): void => {
          clearTimeout(timer);
          fail(timedOut ? timeout() : error);
        };
        let data = '';
        const chunks: Buffer[] = [];
        res.on(
          'data',
          req.binary
            ? (chunk: Buffer) => {
                chunks.push(chunk);
              }
            : (chunk: string) => {
                data += chunk;
              },
        );
        res.on('end', () => {
          clearTimeout(timer);
          ok(req.binary ? Buffer.concat(chunks) : data);
        });
        res.on('error', ko);
        res.on('close', () => {
          if (!res.complete) ko(new Error('response aborted'));
        });
      });
      body.catch(() => undefined);
      const text = (): Promise<string> => body.then((b) => (typeof b === 'string' ? b : b.toString('utf8')));
      const bytes = req.binary ? () => body.then((b) => new Uint8Array(b as Buffer)) : undefined;
      resolve(new NodeResponse(res.statusCode ?? 0, res.statusMessage ?? '', res.headers, text, bytes));
    });
    out.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // One deadline for the whole exchange, headers and body.
    if (ms) {
      timer = setTimeout(() => {
        timedOut = true;
        out.destroy(timeout());
      }, ms);
      // The socket keeps the process alive while a request is open; the timer need not.
      timer.unref();
    }
    if (typeof req.body === 'string') out.end(req.body);
    else if (form) {
      void (async () => {
        try {
          for await (const chunk of form.stream as unknown as AsyncIterable<Uint8Array>) {
            if (!out.write(chunk)) await new Promise((ok) => out.once('drain', ok));
          }
          out.end();
        } catch (error) {
          out.destroy(error as Error);
        }
      })();
    } else out.end();
  });
}

/** Options of the Node transport. */
export interface NodeTransportOptions {
  /** `auto` (default) as described above; `http` or `undici` pins one path (proxies still need undici). */
  mode?: 'auto' | 'http' | 'undici';
}

/** The Node transport: node:http first, undici's pool under sustained use, undici's proxy agent when configured. */
export function nodeTransport(options: NodeTransportOptions = {}): Transport {
  const mode = options.mode ?? 'auto';
  const start = async (req: TransportRequest): Promise<TransportResponse> => {
    sent += 1;
    inFlight += 1;
    try {
      if (mode === 'undici' || proxyConfigured()) {
        const p = await loadPool();
        if (p) return await viaUndici(p, req);
      } else if (mode === 'auto' && (sent >= UPGRADE_AFTER || inFlight > 1)) {
        void loadPool();
      }
      return await viaHttp(req);
    } finally {
      inFlight -= 1;
    }
  };
  // Once the pool is up, requests go straight to it: no counters, no extra async frame.
  return (req) => (pool && mode !== 'http' ? viaUndici(pool, req) : start(req));
}
