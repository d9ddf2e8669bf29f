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

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * The JSON of a deep-frozen value, encoded once; undefined for any other value. A frozen array (a
 * conversation: each new line makes a new one) is joined from its items' bytes, each encoded once.
 */
function frozenBytes(value: unknown): Buffer | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  let b = encoded.get(value);
  if (b || !isDeepFrozen(value)) return b;
  if (Array.isArray(value)) {
    const parts: Buffer[] = [OPEN];
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i) parts.push(COMMA);
      // JSON writes null for what it cannot write in an array (undefined, functions, symbols).
      parts.push(frozenBytes(item) ?? Buffer.from(JSON.stringify(item) ?? 'null'));
    }
    parts.push(CLOSE);
    b = Buffer.concat(parts);
  } else b = Buffer.from(JSON.stringify(value));
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
    const sent = { values, bytes: Buffer.from(JSON.stringify(call)) };
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

/**
 * `JSON.stringify({ [key]: value })` in parts (the same bytes), for a plain object `value`: a
 * message, whose `call` may be reused from `calls`.
 */
export function wrappedBody(key: string, value: Record<string, unknown>, calls?: SentCalls): BodyParts {
  const parts: (string | Buffer)[] = [];
  let bytes = 0;
  let text = `{${JSON.stringify(key)}:{`;
  let first = true;
  for (const k in value) {
    const v = value[k];
    const name = first ? quoted(k) : `,${quoted(k)}`;
    const b = frozenBytes(v) ?? (k === 'call' && calls && v !== null && typeof v === 'object' ? calls.bytes(v as Record<string, unknown>) : undefined);
    if (b) {
      text += name;
      bytes += Buffer.byteLength(text) + b.length;
      parts.push(text, b);
      text = '';
    } else if (Array.isArray(v) && v.length && v.every((e) => frozenBytes(e))) {
      // A conversation so far: each of its frozen messages is copied from its bytes.
      text += `${name}[`;
      for (let i = 0; i < v.length; i++) {
        const e = frozenBytes(v[i]) as Buffer;
        if (i) text += ',';
        bytes += Buffer.byteLength(text) + e.length;
        parts.push(text, e);
        text = '';
      }
      text = ']';
    } else {
      // A finite number's JSON is its string; JSON.stringify leaves out what it cannot write
      // (undefined, functions, symbols).
      const t = typeof v === 'number' && Number.isFinite(v) ? String(v) : JSON.stringify(v);
      if (t === undefined) continue;
      text += name + t;
    }
    first = false;
  }
  text += '}}';
  bytes += Buffer.byteLength(text);
  parts.push(text);
  return { parts, bytes };
}

/** The body's bytes in one buffer (for the pieces of a slow upload). */
export function bodyBytes(body: BodyParts): Buffer {
  return Buffer.concat(body.parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

/** The body as one string (for signing). */
export function bodyText(body: BodyParts): string {
  return bodyBytes(body).toString('utf8');
}
