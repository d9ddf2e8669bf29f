// Node's default transport, on core's outbound HTTP (core/http, README.md there). undici gives
// keep-alive pooling and proxy support but costs a one-shot CLI command more than its budget to
// import, so: with proxy variables set, undici's EnvHttpProxyAgent carries every request (it
// honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY); without them, requests start on node:http's
// keep-alive agent and move to undici's pooled Agent once the process shows sustained use (several
// requests, or requests in parallel), loading undici in the background meanwhile.
// On undici, JSON and text answers skip undici.request's body stream (core/http/text.ts); the
// node:http path is node-http.ts, the response both paths answer with node-response.ts.
import type * as UndiciNs from 'undici';
import { loadUndici, poolOf } from '../http/undici.js';
import type { Pool, RawHeaders } from '../http/undici.js';
import { requestText } from '../http/text.js';
import type { TextAnswer } from '../http/text.js';
import { TimeoutError } from './errors.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';
import { viaHttp } from './node-http.js';
import { limit, NodeResponse, serialise } from './node-response.js';

/** After this many requests in one process the pooled undici transport is loaded. */
export const UPGRADE_AFTER = 8;
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** True when a proxy environment variable is set, so requests must go through undici's proxy agent. */
export function proxyConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return PROXY_VARS.some((name) => Boolean(env[name]));
}

let pool: Pool | undefined;
let loading: Promise<Pool | undefined> | undefined;
let sent = 0;
let inFlight = 0;

function loadPool(): Promise<Pool | undefined> {
  loading ??= loadUndici()
    .then((u) => (pool = poolOf(u, proxyConfigured() ? new u.EnvHttpProxyAgent() : new u.Agent({ keepAliveTimeout: 4_000 }))))
    // Without undici the plain http transport carries on; a failed load must never crash a run.
    .catch(() => undefined);
  return loading;
}

const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function undiciError(error: unknown, ms: number | undefined): unknown {
  if (UNDICI_TIMEOUTS.has((error as { code?: string }).code ?? '')) return new TimeoutError(`No answer within ${ms} ms`, { cause: error });
  return error;
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
