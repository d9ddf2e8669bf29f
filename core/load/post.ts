// How the load generator posts a message: like the emulator's deliveries (same body, headers and
// signing), but on its own lean client (./http.ts) with a connection per call in flight, with the platform's deadline
// timed on the real clock (a native timer, not the HTTP client's coarse one), and with the
// platform-side faults asked for. Every outcome goes to the run's figures.
import { originOf } from './http.js';
import { ConnectionError } from '../client/errors.js';
import type { Origin } from './http.js';
import type { HttpAnswer, PiecedBody } from './http.js';
import { bodyBytes, bodyText, SentCalls, wrappedBody } from './body.js';
import type { BodyParts } from './body.js';
import type { Json, ServerMessage } from '../messages/index.js';
import type { Delivered, Delivery, EmulatorRecord, ServerTarget } from '../emulator/calls/index.js';
import type { LoadStats } from './stats.js';
import { ASSISTANT_REQUEST_SECONDS } from './types.js';
import type { Fault } from './types.js';
import { VoiceError } from '../errors.js';
import { isObject } from '../json.js';

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

/** A body sent in pieces with gaps; `sent` resolves when the last piece has gone. */
function trickle(body: BodyParts, cut?: () => void): { body: PiecedBody; sent: Promise<void> } {
  const bytes = bodyBytes(body);
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
  return { body: { length: bytes.length, pieces: pieces() }, sent };
}

/** The header lines of a delivery (each ending in CRLF); a value that would break the request is refused. */
function headLines(headers: Record<string, string>): string {
  let head = '';
  for (const k in headers) {
    const v = headers[k] as string;
    if (/[\r\n]/.test(k) || /[\r\n]/.test(v)) throw new ConnectionError(`the header ${JSON.stringify(k)} holds a line break`, { code: 'EINVALIDHEADER' });
    head += `${k}: ${v}\r\n`;
  }
  return head;
}

const PLAIN_HEADERS: Record<string, string> = Object.freeze({ 'content-type': 'application/json', 'user-agent': 'voice-load' });
const PLAIN_HEAD = headLines(PLAIN_HEADERS);

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

let isoMs = -1;
let isoText = '';

/** The wall clock as ISO text, made once per millisecond (a run sends dozens of deliveries in one). */
function nowIso(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/** Makes the `post` a load run's calls use (the emulator's `deliver` signature). */
export function makePoster(setup: PostSetup): {
  post: (record: EmulatorRecord, target: ServerTarget, callId: string, message: ServerMessage, signal?: AbortSignal) => Promise<Delivered>;
} {
  // Answer times and deadlines start when a request goes onto its connection, so a request waiting
  // for one of these connections is never timed as the server's answer.
  const urls = new Map<string, { origin: Origin; path: string }>();
  let ids = 0;
  const calls = new SentCalls();
  let n = 0;

  async function once(
    target: ServerTarget,
    callId: string,
    message: ServerMessage,
    raw: BodyParts,
    headers: Record<string, string>,
    head: string,
    how: 'plain' | 'slow' | 'dropped',
  ): Promise<Delivered> {
    const deadline = deadlineOf(message.type, target) * setup.scale;
    const delivery: Delivery = { id: `l${++ids}`, callId, type: message.type, url: target.url, sentAt: nowIso(), request: { headers, body: { message } }, ms: 0 };
    let why: 'late' | 'cut' | undefined;
    let abort: ((err: Error) => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const slow = how === 'plain' ? undefined : trickle(raw, how === 'dropped' ? () => ((why = 'cut'), abort?.(new VoiceError('dropped'))) : undefined);
    let t0 = performance.now();
    const started = (stop: (err: Error) => void): void => {
      abort = stop;
      t0 = performance.now();
      timer = setTimeout(() => ((why ??= 'late'), stop(new VoiceError('late'))), deadline * 1000 + (slow ? SLOW_PIECES * SLOW_GAP_MS : 0));
    };
    // Timed from the last byte sent: a slow upload is the platform's doing, not the server's.
    void slow?.sent.then(() => (t0 = performance.now()));
    let to = urls.get(target.url);
    if (!to) {
      const url = new URL(target.url);
      const origin = originOf(url, CONNECTIONS);
      urls.set(target.url, (to = { origin, path: `${url.pathname}${url.search}` }));
    }
    let answer: Json | undefined;
    try {
      const res: HttpAnswer = await to.origin.post(to.path, head, slow ? slow.body : raw, started);
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
    const raw = wrappedBody('message', message, calls);
    // A server with no headers of its own and no signing (the usual case) gets the same head every time.
    let headers = PLAIN_HEADERS;
    let head = PLAIN_HEAD;
    if (target.sign || !isEmpty(target.headers)) {
      headers = { ...PLAIN_HEADERS, ...target.headers, ...(target.sign ? await target.sign(bodyText(raw)) : {}) };
      head = headLines(headers);
    }
    const k = ++n;
    const due = (f: Fault, offset: number): boolean => setup.faults.has(f) && k % FAULT_EVERY === offset;
    if (due('dropped', 3)) {
      await once(target, callId, message, raw, headers, head, 'dropped');
      setup.extra.dropped = (setup.extra.dropped ?? 0) + 1;
    }
    const slow = due('slow', 6);
    if (slow) setup.extra.slow = (setup.extra.slow ?? 0) + 1;
    const got = await once(target, callId, message, raw, headers, head, slow ? 'slow' : 'plain');
    if (due('duplicate', 0)) {
      // The platform delivered twice: the server answers both; the call goes on with the first answer.
      setup.extra.duplicate = (setup.extra.duplicate ?? 0) + 1;
      await once(target, callId, message, raw, headers, head, 'plain');
    }
    return got;
  }

  return { post };
}
