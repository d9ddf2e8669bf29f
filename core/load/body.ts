// A delivery's body as parts to copy into the request, not one string. Writing every message out
// whole for each delivery, then that text again into the request, was the generator's largest cost
// after the socket itself. Two kinds of part are encoded once and copied as bytes:
// - a deep-frozen value (see messages/frozen.ts): the run's assistant, phone number and customers;
// - a call as last sent, while it is unchanged: between two status changes a call's own fields stay
//   the same through dozens of messages (checked field by field, and only trusted when each field
//   is a plain value or deep-frozen, so nothing inside can have changed unseen).
import { isDeepFrozen } from '../messages/index.js';

/** A request body in parts: strings (written as UTF-8) and bytes, `bytes` long in all. */
export interface BodyParts {
  parts: (string | Buffer)[];
  bytes: number;
}

const encoded = new WeakMap<object, Buffer>();

/**
 * The JSON of a deep-frozen value, encoded once; undefined for any other value. Written as `write`
 * writes, so the frozen parts inside it (a conversation's lines: each new line makes a new
 * conversation) are copied from their own bytes.
 */
function frozenBytes(value: unknown): Buffer | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  let b = encoded.get(value);
  if (b || !isDeepFrozen(value)) return b;
  b = encode(value);
  encoded.set(value, b);
  return b;
}

const names = new Map<string, string>();

/** A field's name as JSON with its colon (`"type":`); a message has few, written once each. */
function quoted(k: string): string {
  let q = names.get(k);
  if (q === undefined) {
    q = `${JSON.stringify(k)}:`;
    if (names.size < 1024) names.set(k, q);
  }
  return q;
}

interface Sent {
  values: unknown[];
  bytes: Buffer;
}

/** Calls' last sent shapes, by call id; bounded, the oldest forgotten first. */
export class SentCalls {
  private readonly last = new Map<string, Sent>();
  constructor(private readonly max = 4096) {}

  /** The bytes of `call`, reused when its fields are the ones last sent for its id. */
  bytes(call: Record<string, unknown>): Buffer | undefined {
    const id = call.id;
    if (typeof id !== 'string') return undefined;
    const prev = this.last.get(id);
    if (prev && same(call, prev.values)) return prev.bytes;
    const values: unknown[] = [];
    for (const k in call) {
      const v = call[k];
      if (v !== null && typeof v === 'object' && !isDeepFrozen(v)) return undefined;
      values.push(k, v);
    }
    const sent = { values, bytes: encode(call) };
    if (!prev && this.last.size >= this.max) this.last.delete(this.last.keys().next().value as string);
    this.last.set(id, sent);
    return sent.bytes;
  }
}

/** True when `call` has exactly the fields and values last sent (an object there is the same frozen one). */
function same(call: Record<string, unknown>, values: unknown[]): boolean {
  let i = 0;
  for (const k in call) {
    if (values[i] !== k || values[i + 1] !== call[k]) return false;
    i += 2;
  }
  return i === values.length;
}

/** A body being written: the parts so far, and the text not yet put in them. */
interface Writer {
  parts: (string | Buffer)[];
  text: string;
  bytes: number;
}

function put(w: Writer, b: Buffer): void {
  w.bytes += Buffer.byteLength(w.text) + b.length;
  w.parts.push(w.text, b);
  w.text = '';
}

/** A value JSON leaves out of an object (and writes as null in an array). */
const omitted = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * Writes `v` as JSON.stringify would. Frozen parts (and a call unchanged since it was last sent)
 * are copied as bytes; plain objects and arrays are written field by field, so the frozen parts
 * inside them are copied too (an ended call holds its whole conversation); the rest is stringified.
 */
function write(w: Writer, v: unknown, calls?: SentCalls): void {
  if (v === null || typeof v !== 'object') {
    w.text += typeof v === 'number' && Number.isFinite(v) ? String(v) : (JSON.stringify(v) ?? 'null');
    return;
  }
  const b = frozenBytes(v) ?? calls?.bytes(v as Record<string, unknown>);
  if (b) return put(w, b);
  fresh(w, v);
}

/** Writes an object or array itself (its parts may come from their bytes). */
function fresh(w: Writer, v: object): void {
  if (Array.isArray(v)) {
    w.text += '[';
    for (let i = 0; i < v.length; i++) {
      if (i) w.text += ',';
      const item: unknown = v[i];
      if (omitted(item)) w.text += 'null';
      else write(w, item);
    }
    w.text += ']';
    return;
  }
  // Anything but a plain object (a Date, a class, an object with its own toJSON) is JSON's to write.
  const proto: unknown = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    w.text += JSON.stringify(v) ?? 'null';
    return;
  }
  fields(w, v as Record<string, unknown>);
}

/** The parts written so far, with the text left. */
function done(w: Writer): BodyParts {
  w.bytes += Buffer.byteLength(w.text);
  w.parts.push(w.text);
  return { parts: w.parts, bytes: w.bytes };
}

/** The JSON of an object or array in one buffer. */
function encode(v: object): Buffer {
  const w: Writer = { parts: [], text: '', bytes: 0 };
  fresh(w, v);
  return bodyBytes(done(w));
}

/** A plain object's fields; `calls` is for the one named `call` (a message's). */
function fields(w: Writer, o: Record<string, unknown>, calls?: SentCalls): void {
  w.text += '{';
  let first = true;
  for (const k in o) {
    const item = o[k];
    if (omitted(item)) continue;
    w.text += first ? quoted(k) : `,${quoted(k)}`;
    write(w, item, k === 'call' ? calls : undefined);
    first = false;
  }
  w.text += '}';
}

/**
 * `JSON.stringify({ [key]: value })` in parts (the same bytes), for a plain object `value`: a
 * message, whose `call` may be reused from `calls`.
 */
export function wrappedBody(key: string, value: Record<string, unknown>, calls?: SentCalls): BodyParts {
  const w: Writer = { parts: [], text: `{${JSON.stringify(key)}:`, bytes: 0 };
  fields(w, value, calls);
  w.text += '}';
  return done(w);
}

/** The body's bytes in one buffer (for the pieces of a slow upload). */
export function bodyBytes(body: BodyParts): Buffer {
  return Buffer.concat(body.parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

/** The body as one string (for signing). */
export function bodyText(body: BodyParts): string {
  return bodyBytes(body).toString('utf8');
}
