// The emulator's one record of what happens: calls and their events, deliveries to the
// developer's servers with request and answer, and the REST requests it answered. Everything
// else (the deliveries endpoint, the live stream, `voice dev`'s stderr lines, `voice call
// watch`, the inspector) is a view of this record.

/** A delivery of one server message to a server, with what came back. */
export interface Delivery {
  /** Unique within the emulator run. */
  id: string;
  callId: string;
  /** The message type, e.g. `status-update`. */
  type: string;
  url: string;
  /** When it was sent (wall clock, ISO). */
  sentAt: string;
  request: { headers: Record<string, string>; body: { message: Record<string, unknown> } };
  /** HTTP status of the answer; absent when none came (timeout, refused connection). */
  status?: number;
  /** The answer's body: parsed JSON, or the raw text when it was not JSON. */
  answer?: unknown;
  /** Why the delivery failed (`timeout after 20 s`, `HTTP 500`, `malformed JSON`...). */
  error?: string;
  /** Milliseconds from sending to the answer (or the failure). */
  ms: number;
  /** Set on a delivery sent again on request (`POST /__voice/deliveries/{id}/replay`): the original's id. */
  replayOf?: string;
}

/** What a REST request carried and got back, kept apart from its event (bodies are fetched on demand). */
export interface RequestBodies {
  /** The request body as received (at most MAX_BODY_TEXT characters). */
  request?: string;
  /** The response body as sent (JSON and text; binary answers are described). */
  response?: string;
}

/** One request to the model and what it answered (`call.model`): the body as sent, secrets masked. */
export interface ModelStepRecord {
  /** Assistant turn number on its call (1 = the first), and the step within the turn (1 = the first). */
  turn: number;
  step: number;
  request: { url: string; body: unknown };
  /** Messages left out of `request.body.messages` (the oldest) to keep the record small. */
  omittedMessages?: number;
  /** The body was forgotten (only the newest MAX_MODEL_BODIES steps keep theirs). */
  bodyForgotten?: boolean;
  ok: boolean;
  text?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  /** Milliseconds to the first streamed token, and to the end of the answer (measured; a replay gives the recorded ones). */
  firstTokenMs?: number;
  totalMs?: number;
  /** Answered from a cassette, no model called. */
  replayed?: boolean;
  endedReason?: string;
  message?: string;
}

/** One function tool the model called, with the server's answer (`call.tool`). */
export interface ToolStepRecord {
  turn: number;
  step: number;
  id: string;
  name: string;
  arguments: string;
  result?: string;
  error?: string;
  /** Milliseconds from sending `tool-calls` to the answer. */
  ms: number;
}

/** One assistant turn's latencies (`call.turn`): model time to first token, tool time, the whole turn. */
export interface TurnRecord {
  turn: number;
  steps: number;
  /** The first step's time to first token (the platform's model latency). */
  modelMs: number;
  /** Every step's time, first byte sent to last token received. */
  modelTotalMs: number;
  toolMs: number;
  totalMs: number;
  failure?: string;
}

/** One thing that happened, as the live stream carries it. */
export type RecordEvent =
  | { kind: 'call.status'; seq: number; at: string; callId: string; status: string; endedReason?: string }
  | { kind: 'call.transcript'; seq: number; at: string; callId: string; role: 'assistant' | 'user'; text: string; partial?: boolean }
  | { kind: 'call.log'; seq: number; at: string; callId: string; level?: string; text: string }
  | ({ kind: 'call.model'; seq: number; at: string; callId: string } & ModelStepRecord)
  | ({ kind: 'call.tool'; seq: number; at: string; callId: string } & ToolStepRecord)
  | ({ kind: 'call.turn'; seq: number; at: string; callId: string } & TurnRecord)
  | { kind: 'delivery'; seq: number; at: string; callId: string; delivery: Delivery }
  | { kind: 'campaign'; seq: number; at: string; campaignId: string; status: string; text?: string }
  | { kind: 'request'; seq: number; at: string; method: string; path: string; status: number; ms: number; userAgent?: string; message?: string; inspector?: boolean };

/** An event before the record numbers and stamps it. */
export type NewEvent = RecordEvent extends infer E ? (E extends RecordEvent ? Omit<E, 'seq' | 'at'> : never) : never;

/** Receives every event as it is recorded. */
export type RecordListener = (event: RecordEvent) => void;

/** How much the record keeps at most, oldest forgotten first (a twentieth at a time once full): call
 * events and REST requests apart, so a flood of requests never pushes a call's story out. */
const MAX_CALL_EVENTS = 50_000;
export const MAX_REQUESTS = 5_000;
/** Model steps that keep their request body (each at most about MAX_BODY_TEXT): older ones keep the rest. */
export const MAX_MODEL_BODIES = 500;
/** Longest body text kept per request. */
export const MAX_BODY_TEXT = 64 * 1024;

function push<T>(list: T[], item: T, max: number): void {
  list.push(item);
  // The oldest twentieth goes at once: moving 50,000 entries to forget one, per event, was a tenth of a busy emulator's time.
  if (list.length > max) list.splice(0, list.length - max + Math.ceil(max / 20));
}

/** The record: append-only, bounded event lists with listeners. */
export class EmulatorRecord {
  private readonly callEvents: RecordEvent[] = [];
  private readonly requests: RecordEvent[] = [];
  private readonly bodies = new Map<number, RequestBodies>();
  private readonly modelBodies: ModelStepRecord[] = [];
  private readonly listeners = new Set<RecordListener>();
  private seq = 0;
  private deliverySeq = 0;

  /** Appends an event, stamps it with a sequence number and the wall clock, and tells listeners. */
  add(event: NewEvent): RecordEvent {
    const full = { ...event, seq: ++this.seq, at: new Date().toISOString() } as RecordEvent;
    if (full.kind === 'request') {
      push(this.requests, full, MAX_REQUESTS);
      const first = this.requests[0];
      // Bodies are forgotten with their request (the map is in sequence order: stop at the first kept).
      if (first && this.bodies.size) {
        for (const seq of this.bodies.keys()) {
          if (seq >= first.seq) break;
          this.bodies.delete(seq);
        }
      }
    } else push(this.callEvents, full, MAX_CALL_EVENTS);
    if (full.kind === 'call.model') this.keepModelBody(full);
    for (const listener of this.listeners) {
      try {
        listener(full);
      } catch {
        // A broken view must never stop the emulator.
      }
    }
    return full;
  }

  /** A model step's request body is large: only the newest MAX_MODEL_BODIES keep theirs. */
  private keepModelBody(step: ModelStepRecord): void {
    this.modelBodies.push(step);
    while (this.modelBodies.length > MAX_MODEL_BODIES) {
      const old = this.modelBodies.shift() as ModelStepRecord;
      old.request = { url: old.request.url, body: {} };
      old.bodyForgotten = true;
    }
  }

  /** Forgets every event (a reset); sequence numbers keep growing, so live readers never see one twice. */
  clear(): void {
    this.callEvents.length = 0;
    this.requests.length = 0;
    this.bodies.clear();
    this.modelBodies.length = 0;
  }

  /** Records a REST request with its bodies (kept apart, fetched with `requestBodies`). */
  addRequest(event: Omit<Extract<NewEvent, { kind: 'request' }>, 'kind'>, bodies: RequestBodies): RecordEvent {
    const clip = (t: string | undefined): string | undefined => (t !== undefined && t.length > MAX_BODY_TEXT ? `${t.slice(0, MAX_BODY_TEXT)}… (cut at ${MAX_BODY_TEXT} characters)` : t);
    const full = this.add({ kind: 'request', ...event });
    if (bodies.request || bodies.response) this.bodies.set(full.seq, { request: clip(bodies.request), response: clip(bodies.response) });
    return full;
  }

  /** The request event of sequence number `seq` and its bodies, while the record still holds it. */
  request(seq: number): { event: RecordEvent; bodies: RequestBodies } | undefined {
    const event = this.requests.find((e) => e.seq === seq);
    return event ? { event, bodies: this.bodies.get(seq) ?? {} } : undefined;
  }

  /** The delivery with this id, while the record still holds it. */
  delivery(id: string): Delivery | undefined {
    for (let i = this.callEvents.length - 1; i >= 0; i--) {
      const e = this.callEvents[i] as RecordEvent;
      if (e.kind === 'delivery' && e.delivery.id === id) return e.delivery;
    }
    return undefined;
  }

  /** A fresh delivery id. */
  nextDeliveryId(): string {
    return `d${++this.deliverySeq}`;
  }

  /** Events after `since` (a sequence number), optionally of one call, oldest first. */
  list(filter: { since?: number; callId?: string } = {}): RecordEvent[] {
    const since = filter.since ?? 0;
    const calls = this.callEvents.filter((e) => e.seq > since && (!filter.callId || ('callId' in e && e.callId === filter.callId)));
    if (filter.callId) return calls;
    return [...calls, ...this.requests.filter((e) => e.seq > since)].sort((a, b) => a.seq - b.seq);
  }

  /** The deliveries made (optionally for one call), oldest first. */
  deliveries(callId?: string): Delivery[] {
    const out: Delivery[] = [];
    for (const e of this.callEvents) if (e.kind === 'delivery' && (!callId || e.callId === callId)) out.push(e.delivery);
    return out;
  }

  /** Calls `listener` with every new event; returns the function that stops it. */
  subscribe(listener: RecordListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
