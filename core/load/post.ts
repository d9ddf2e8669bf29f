// How the load generator posts a message: like the emulator's deliveries (same body, headers and
// signing), but on a pool with a connection per call in flight, with the platform's deadline
// timed on the real clock (a native timer, not the HTTP client's coarse one), and with the
// platform-side faults asked for. Every outcome goes to the run's figures.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type { Json, ServerMessage } from '../messages/index.js';
import type { Delivered, ServerTarget } from '../emulator/calls/deliver.js';
import type { Delivery, EmulatorRecord } from '../emulator/record.js';
import type { LoadStats } from './stats.js';
import { ASSISTANT_REQUEST_SECONDS } from './types.js';
import type { Fault } from './types.js';

/** The deadline of a message type on a server, in seconds, before scaling. */
export function deadlineOf(type: string, target: ServerTarget): number {
  return type === 'assistant-request' ? Math.min(ASSISTANT_REQUEST_SECONDS, target.timeoutSeconds) : target.timeoutSeconds;
}

/** What the poster needs from its run. */
export interface PostSetup {
  stats: LoadStats;
  /** Real ms at the run's start (`performance.now()`). */
  t0: number;
  scale: number;
  faults: ReadonlySet<Fault>;
  /** Deliveries the faults added, by fault. */
  extra: Record<string, number>;
}

/** Connections per server: enough for hundreds of calls in flight without flooding a server's listen backlog. */
const CONNECTIONS = 256;
/** Every n-th delivery gets a fault asked for. */
const FAULT_EVERY = 10;
/** The slow fault sends the body in this many pieces, this many ms apart. */
const SLOW_PIECES = 4;
const SLOW_GAP_MS = 25;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A body sent in pieces with gaps; `sent` resolves when the last piece has gone. */
function trickle(raw: string, cut?: () => void): { body: Readable; sent: Promise<void> } {
  const bytes = Buffer.from(raw);
  let done!: () => void;
  const sent = new Promise<void>((r) => (done = r));
  async function* pieces(): AsyncGenerator<Buffer> {
    const size = Math.ceil(bytes.length / SLOW_PIECES);
    for (let i = 0; i < SLOW_PIECES; i++) {
      // A dropped connection: half the body, then the platform side goes away.
      if (cut && i === SLOW_PIECES / 2) {
        cut();
        return;
      }
      yield bytes.subarray(i * size, (i + 1) * size);
      if (i < SLOW_PIECES - 1) await sleep(SLOW_GAP_MS);
    }
    done();
  }
  return { body: Readable.from(pieces()), sent };
}

/** Posts on the pool; `started` is called as the request goes onto its connection (after any wait for one) with the function that aborts it. */
function dispatchPost(pool: Agent, url: URL, headers: Record<string, string>, body: string | Readable, started: (abort: (err?: Error) => void) => void): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = 0;
    pool.dispatch(
      { origin: url.origin, path: `${url.pathname}${url.search}`, method: 'POST', headers, body },
      {
        onConnect: (abort) => started(abort),
        onHeaders: (code) => {
          status = code;
          return true;
        },
        onData: (chunk) => {
          chunks.push(chunk);
          return true;
        },
        onComplete: () => resolve({ status, text: Buffer.concat(chunks).toString('utf8') }),
        onError: reject,
      },
    );
  });
}

/**
 * Makes one request on loopback before the run: the HTTP client compiles its parser on its first
 * connection (about 100 ms), which would otherwise land on the first answers measured.
 */
export async function warmUp(pool: Agent): Promise<void> {
  const server = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST', body: '{}', dispatcher: pool, reset: true });
    await res.body.text();
  } finally {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
}

/** Makes the `post` a load run's calls use (the emulator's `deliver` signature). */
export function makePoster(setup: PostSetup): {
  post: (record: EmulatorRecord, target: ServerTarget, callId: string, message: ServerMessage, signal?: AbortSignal) => Promise<Delivered>;
  warm: () => Promise<void>;
  close: () => Promise<void>;
} {
  // Answer times and deadlines start when a request goes onto its connection, so a request waiting
  // for one of these connections is never timed as the server's answer.
  const pool = new Agent({ keepAliveTimeout: 10_000, connections: CONNECTIONS });
  const urls = new Map<string, URL>();
  let ids = 0;
  let n = 0;

  async function once(target: ServerTarget, callId: string, message: ServerMessage, raw: string, headers: Record<string, string>, how: 'plain' | 'slow' | 'dropped'): Promise<Delivered> {
    const deadline = deadlineOf(message.type, target) * setup.scale;
    const delivery: Delivery = { id: `l${++ids}`, callId, type: message.type, url: target.url, sentAt: new Date().toISOString(), request: { headers, body: { message } }, ms: 0 };
    let why: 'late' | 'cut' | undefined;
    let abort: ((err?: Error) => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const slow = how === 'plain' ? undefined : trickle(raw, how === 'dropped' ? () => ((why = 'cut'), abort?.(new Error('dropped'))) : undefined);
    let t0 = performance.now();
    const started = (stop: (err?: Error) => void): void => {
      abort = stop;
      t0 = performance.now();
      timer = setTimeout(() => ((why ??= 'late'), stop(new Error('late'))), deadline * 1000 + (slow ? SLOW_PIECES * SLOW_GAP_MS : 0));
    };
    // Timed from the last byte sent: a slow upload is the platform's doing, not the server's.
    void slow?.sent.then(() => (t0 = performance.now()));
    let url = urls.get(target.url);
    if (!url) urls.set(target.url, (url = new URL(target.url)));
    let answer: Json | undefined;
    try {
      const res = await dispatchPost(pool, url, headers, slow ? slow.body : raw, started);
      const text = res.text;
      delivery.status = res.status;
      let parsed: unknown;
      if (text.trim()) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
          delivery.error = 'malformed JSON in the answer';
        }
      }
      delivery.answer = parsed;
      if (res.status < 200 || res.status >= 300) delivery.error = `HTTP ${res.status}`;
      else if (isObject(parsed)) answer = isObject(parsed.messageResponse) ? parsed.messageResponse : parsed;
    } catch (err) {
      const e = err as Error & { code?: string };
      delivery.error = why === 'cut' ? 'dropped' : why === 'late' ? `no answer within ${deadline} s` : `could not connect: ${e.code ?? e.message}`;
    } finally {
      clearTimeout(timer);
    }
    const ms = performance.now() - t0;
    delivery.ms = Math.round(ms * 100) / 100;
    if (how === 'dropped') return { delivery };
    const miss = why === 'late' || ms > deadline * 1000;
    const kind =
      why === 'late'
        ? 'timeout'
        : delivery.status !== undefined && delivery.error?.startsWith('HTTP')
          ? String(delivery.status)
          : delivery.error
            ? delivery.error.startsWith('could not')
              ? 'connection'
              : 'malformed'
            : undefined;
    setup.stats.add({ type: message.type, at: t0 - setup.t0, ms, miss, deadlineSeconds: deadline, ...(kind ? { error: kind } : {}) });
    // Past the deadline the platform has given up: the answer, however good, is not used.
    if (miss && !delivery.error) delivery.error = `answered after the ${deadline} s deadline`;
    return answer && !miss ? { delivery, answer } : { delivery };
  }

  async function post(_record: EmulatorRecord, target: ServerTarget, callId: string, message: ServerMessage): Promise<Delivered> {
    const raw = JSON.stringify({ message });
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'voice-load', ...target.headers, ...(target.sign ? await target.sign(raw) : {}) };
    const k = ++n;
    const due = (f: Fault, offset: number): boolean => setup.faults.has(f) && k % FAULT_EVERY === offset;
    if (due('dropped', 3)) {
      await once(target, callId, message, raw, headers, 'dropped');
      setup.extra.dropped = (setup.extra.dropped ?? 0) + 1;
    }
    const slow = due('slow', 6);
    if (slow) setup.extra.slow = (setup.extra.slow ?? 0) + 1;
    const got = await once(target, callId, message, raw, headers, slow ? 'slow' : 'plain');
    if (due('duplicate', 0)) {
      // The platform delivered twice: the server answers both; the call goes on with the first answer.
      setup.extra.duplicate = (setup.extra.duplicate ?? 0) + 1;
      await once(target, callId, message, raw, headers, 'plain');
    }
    return got;
  }

  return { post, warm: () => warmUp(pool), close: () => pool.close() };
}
