// The HTTP side of `voice listen`: takes the server messages the platform (or the emulator)
// posts, forwards each to the developer's server with its headers and raw bytes, relays that
// server's answer back to the sender, and reports every message to a callback.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FINAL_TRANSCRIPTS } from '#core/messages/index';
import { addSecret } from '../redact.js';
import { postServerMessage } from '#core/messages/post';
import type { PostResult as Delivery } from '#core/messages/post';
import { callIdOf } from './summary.js';
import { receiverGuard } from './receiver-guard.js';
import type { SenderCheck } from './receiver-guard.js';

type Obj = Record<string, unknown>;

/** What happened to one request that reached the receiver. */
export interface Received {
  time: Date;
  /** Path it was posted to (the query string included). */
  path: string;
  /** The message type, or undefined when the request was not a server message. */
  type?: string;
  callId?: string;
  message?: Obj;
  /** Not shown and not forwarded: its type is not in `--events`. */
  filtered: boolean;
  /** The developer's server's answer, when forwarded. */
  forwarded?: Delivery;
  /** What the sender got back. */
  reply: { status: number; body: unknown; noop: boolean };
  /** What is wrong with the answer, for types that expect one (empty when valid). */
  problems?: string[];
  /** What is worth knowing about an accepted answer (a field the schema lists but the platform does not need). */
  notes?: string[];
  /** Why the request was refused (not JSON, not a server message). */
  refused?: string;
}

/** How the receiver behaves. */
export interface ReceiverOptions {
  port: number;
  host: string;
  forwardTo?: string;
  /** Types to show and forward; all when undefined. */
  events?: ReadonlySet<string>;
  timeoutMs: number;
  /** The answer given when nothing is forwarded: its status and JSON body. */
  noop(message: Obj): { status: number; body: unknown };
  /** Problems and notes about an answer to a message of this type (undefined: the type expects none). */
  judge?(message: Obj, answer: unknown): Promise<{ problems: string[]; notes: string[] } | undefined>;
  onReceived(event: Received): void;
  /** Who may post (a secret, a credential, extra Host names); web pages never may. */
  senders?: Omit<SenderCheck, 'bind'>;
}

/** A running receiver. */
export interface Receiver {
  url: string;
  port: number;
  /** How many messages arrived (filtered ones included). */
  count(): number;
  close(): Promise<void>;
}

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'proxy-connection', 'te', 'trailer', 'expect']);
const LIMIT = 25 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > LIMIT) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendText(res: ServerResponse, status: number, text: string, contentType: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body), 'application/json');
}

const SECRET_HEADER = /secret|authorization|signature|token|api-?key/i;

function forwardHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (HOP.has(k) || v === undefined) continue;
    headers[k] = Array.isArray(v) ? v.join(', ') : v;
    // Forwarded, never printed: an answer that echoes it is masked too.
    if (SECRET_HEADER.test(k)) addSecret(headers[k]);
  }
  return headers;
}

/** The type a filter entry matches: `transcript` also matches `transcript[transcriptType="final"]`. */
export function baseType(type: string): string {
  return type.replace(/\[.*$/, '');
}

function wanted(events: ReadonlySet<string>, type: string, message: Obj): boolean {
  if (events.has(type) || events.has(baseType(type))) return true;
  return type === 'transcript' && message.transcriptType === 'final' && events.has(FINAL_TRANSCRIPTS);
}

/** Starts the receiver; rejects with the listen error (EADDRINUSE...) when the port cannot be used. */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  let count = 0;
  const aborts = new AbortController();
  const guard = receiverGuard({ ...opts.senders, bind: opts.host });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const time = new Date();
    const path = req.url ?? '/';
    const refuse = (status: number, why: string): void => {
      send(res, status, { error: why });
      opts.onReceived({ time, path, filtered: false, reply: { status, body: { error: why }, noop: false }, refused: why });
    };
    // Before anything is read: a web page gets nothing here, not even the body read.
    const page = guard.page(req);
    if (page) {
      req.resume();
      return refuse(page.status, page.why);
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      sendText(res, 200, 'voice listen is running: POST server messages here.\n', 'text/plain; charset=utf-8');
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, { error: `voice listen takes POST requests, not ${req.method}` });
      return;
    }
    const raw = await readBody(req);
    if (!raw) return refuse(413, `body over ${LIMIT / 1024 / 1024} MB`);
    const sender = await guard.sender(req, raw);
    if (sender) return refuse(sender.status, sender.why);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return refuse(400, 'the body is not JSON; server messages are JSON: { "message": { "type": ... } }');
    }
    const message = (body as { message?: unknown } | null)?.message;
    const type = (message as { type?: unknown } | undefined)?.type;
    if (message === null || typeof message !== 'object' || typeof type !== 'string') {
      return refuse(400, 'not a server message: expected { "message": { "type": ... } }');
    }
    count++;
    const msg = message as Obj;
    const callId = callIdOf(msg);
    const filtered = opts.events !== undefined && !wanted(opts.events, type, msg);
    const base = { time, path, type, message: msg, filtered, ...(callId ? { callId } : {}) };
    if (filtered || !opts.forwardTo) {
      const answer = opts.noop(msg);
      send(res, answer.status, answer.body);
      opts.onReceived({ ...base, reply: { ...answer, noop: true } });
      return;
    }
    const delivery = await postServerMessage(opts.forwardTo, raw.toString('utf8'), { headers: forwardHeaders(req), timeoutMs: opts.timeoutMs, signal: aborts.signal });
    let status: number;
    let reply: unknown;
    if (delivery.status !== undefined) {
      status = delivery.status;
      reply = delivery.answer ?? delivery.text;
      // The answer's own bytes and type go back, so the sender sees exactly what the server said.
      sendText(res, status, delivery.text, delivery.contentType ?? 'text/plain');
    } else {
      status = delivery.failure === 'timeout' ? 504 : 502;
      reply = { error: `voice listen: ${opts.forwardTo} ${delivery.reason ?? 'failed'}` };
      send(res, status, reply);
    }
    const ok = delivery.status !== undefined && delivery.status >= 200 && delivery.status < 300;
    const verdict = ok ? await opts.judge?.(msg, delivery.answer) : undefined;
    const judged = verdict ? { problems: verdict.problems, ...(verdict.notes.length ? { notes: verdict.notes } : {}) } : {};
    opts.onReceived({ ...base, forwarded: delivery, reply: { status, body: reply, noop: false }, ...judged });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: `voice listen: ${(error as Error).message}` }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}`,
    port,
    count: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        aborts.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
