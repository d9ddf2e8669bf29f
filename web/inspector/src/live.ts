// The page's one view of the emulator's record, folded into calls, deliveries and requests, from
// /__voice/events (replaying the record first). The streams are compact and batched
// (`lite=1&batch=250`: a few messages a second however busy the emulator is), and each follows
// only what is on screen: the status changes always (each carries a summary of its call, all the
// calls list needs); a call's transcript, logs and deliveries while its view is open, every
// delivery or every REST request while their tab is (`useFollow`). A hundred calls bring
// thousands of events a second that nobody is looking at. A call's whole object (messages,
// analysis, costs) is fetched only while its view is open (`loadCall`).
import { CONTROL_PATHS, eventsPath } from '#core/emulator/control/paths';
import { useEffect, useSyncExternalStore } from 'react';
import { MAX_REQUESTS } from '#core/emulator/store/record';
import type { Delivery, RecordEvent } from '#core/emulator/store/record';
import { api } from './api';

/** A call as the REST API returns it (the fields the page reads). */
export interface ApiCall {
  id: string;
  type?: string;
  status?: string;
  createdAt?: string;
  startedAt?: string;
  endedAt?: string;
  endedReason?: string;
  cost?: number;
  costBreakdown?: Record<string, unknown>;
  assistantId?: string;
  assistant?: { name?: string };
  squadId?: string;
  workflowId?: string;
  phoneNumberId?: string;
  customer?: { number?: string; name?: string };
  messages?: Record<string, unknown>[];
  analysis?: { summary?: string };
  artifact?: { recordingUrl?: string; performanceMetrics?: Record<string, unknown> };
}

/** A spoken line; a partial one is replaced by the final line of the same speaker. */
export interface Line {
  role: 'assistant' | 'user';
  text: string;
  partial: boolean;
  at: string;
}

/** Everything the page knows about one call. */
export interface CallState {
  id: string;
  statuses: { status: string; endedReason?: string; at: string }[];
  lines: Line[];
  logs: { level?: string; text: string; at: string }[];
  deliveries: Delivery[];
  call?: ApiCall;
  /** When the page first heard of it (for ordering). */
  seen: number;
  /** Grows whenever its status or call object changes (a calls list row redraws only then). */
  v: number;
}

/** The views draw at most this often while events keep coming (a quiet stream draws at once). */
const RENDER_EVERY_MS = 1000;

/** An event of the compact stream: a status change carries its call's summary. */
type LiveEvent = Exclude<RecordEvent, { kind: 'call.status' }> | (Extract<RecordEvent, { kind: 'call.status' }> & { call?: ApiCall });

/** A model step, a tool call the model made, or a turn's latencies. */
export type ModelEvent = Extract<RecordEvent, { kind: 'call.model' | 'call.tool' | 'call.turn' }>;

/** A REST request the emulator answered. */
export type RequestEvent = Extract<RecordEvent, { kind: 'request' }>;

class Live {
  readonly calls = new Map<string, CallState>();
  /** The model's side of each call or chat (by its id): requests and answers, tool calls, turn latencies. */
  readonly model = new Map<string, ModelEvent[]>();
  /** Newest first. */
  order: string[] = [];
  deliveries: Delivery[] = [];
  requests: RequestEvent[] = [];
  connected = false;
  /** True once the stream has been open at least once (before that the page is connecting, not reconnecting). */
  everConnected = false;
  /** True once the stored calls have been asked for (before that an empty list means "not loaded yet"). */
  callsLoaded = false;
  info: { speed: number; apiKeyRequired: boolean } | undefined;
  /** Grows with every campaign change the record tells (the campaigns view reads again then). */
  campaignChanges = 0;
  /** Assistant names by id (for the calls list). */
  readonly names = new Map<string, string>();
  private namesAsked = 0;
  version = 0;
  private listeners = new Set<() => void>();
  private pending = false;
  /** When the views last drew (performance.now()). */
  private drawn = -Infinity;
  private counter = 0;
  private source: EventSource | undefined;
  /** Each delivery's sequence number in the record. */
  private deliverySeq = new WeakMap<Delivery, number>();
  /** Sequence numbers of the events taken: a stream opened again replays what the page has. */
  private taken = new Set<number>();
  /** The extra streams open, by what they follow, with how many views want each. */
  private followed = new Map<string, { source: EventSource; users: number }>();

  subscribe = (cb: () => void): (() => void) => {
    this.listeners.add(cb);
    this.start();
    return () => this.listeners.delete(cb);
  };

  /** Tells the views: at the next frame when they last drew a while ago, else once RENDER_EVERY_MS
   * has passed since (a hundred calls bring thousands of events a second; drawing is what costs). */
  changed(): void {
    if (this.pending) return;
    this.pending = true;
    const draw = (): void => {
      this.pending = false;
      this.drawn = performance.now();
      this.version++;
      for (const l of this.listeners) l();
    };
    // A hidden tab draws nothing (animation frames wait until it is shown again).
    const frame = (): void => void requestAnimationFrame(draw);
    const wait = this.drawn + RENDER_EVERY_MS - performance.now();
    if (wait <= 0) frame();
    else setTimeout(frame, wait);
  }

  private start(): void {
    if (this.source) return;
    this.source = this.open('kinds=call.status');
    this.source.onopen = () => {
      this.connected = true;
      this.everConnected = true;
      this.changed();
    };
    this.source.onerror = () => {
      this.connected = false;
      this.changed();
    };
    void api<{ speed: number; apiKeyRequired: boolean }>(CONTROL_PATHS.info).then(
      (info) => {
        this.info = info;
        this.changed();
      },
      () => undefined,
    );
    void this.loadCalls();
  }

  /** A compact, batched stream of the record from its start (`filter`: kinds, a call). */
  private open(filter: string): EventSource {
    const source = new EventSource(`${eventsPath({ since: 0, lite: 1, batch: 250 })}&${filter}`);
    source.addEventListener('batch', (e: MessageEvent<string>) => {
      for (const one of JSON.parse(e.data) as LiveEvent[]) {
        if (this.taken.has(one.seq)) continue;
        this.taken.add(one.seq);
        this.take(one);
      }
      // The record forgets its oldest events too: the page remembers at most this many numbers.
      if (this.taken.size > 200_000) for (const seq of [...this.taken].slice(0, 100_000)) this.taken.delete(seq);
      this.changed();
    });
    return source;
  }

  /** Follows more of the record (event kinds, of one call or all) until the returned function is called. */
  follow(kinds: readonly RecordEvent['kind'][], callId?: string): () => void {
    const key = `kinds=${kinds.join(',')}${callId ? `&callId=${encodeURIComponent(callId)}` : ''}`;
    const entry = this.followed.get(key) ?? { source: this.open(key), users: 0 };
    entry.users++;
    this.followed.set(key, entry);
    return () => {
      if (--entry.users > 0) return;
      entry.source.close();
      this.followed.delete(key);
    };
  }

  /** Loads the newest stored calls (seeded or created before the page opened). */
  async loadCalls(): Promise<void> {
    try {
      const list = await api<ApiCall[]>('/call?limit=100');
      for (const c of list) {
        const s = this.callState(c.id, c.createdAt ? Date.parse(c.createdAt) : 0);
        s.call = { ...s.call, ...c };
        s.v++;
      }
      this.sort();
      this.changed();
    } catch {
      // Shown by the key prompt when the key was refused; the live stream still works.
    }
    this.callsLoaded = true;
    this.changed();
  }

  /** An assistant's name, loading the assistants (at most every few seconds) when it is unknown. */
  assistantName(id: string | undefined): string | undefined {
    if (!id) return undefined;
    const name = this.names.get(id);
    if (name === undefined && Date.now() - this.namesAsked > 3000) {
      this.namesAsked = Date.now();
      api<{ id: string; name?: string }[]>('/assistant?limit=1000').then(
        (list) => {
          for (const a of list) this.names.set(a.id, a.name ?? a.id.slice(0, 8));
          this.changed();
        },
        () => undefined,
      );
    }
    return name;
  }

  private sort(): void {
    this.order = [...this.calls.values()].sort((a, b) => b.seen - a.seen).map((c) => c.id);
  }

  callState(id: string, seen = Date.now() + ++this.counter / 1000): CallState {
    let s = this.calls.get(id);
    if (!s) {
      s = { id, statuses: [], lines: [], logs: [], deliveries: [], seen, v: 0 };
      this.calls.set(id, s);
      this.order.unshift(id);
    }
    return s;
  }

  /** Fetches a call's whole object (its view is open); the calls list lives on the stream's summaries. */
  async loadCall(id: string): Promise<void> {
    try {
      const c = await api<ApiCall>(`/call/${encodeURIComponent(id)}`);
      const s = this.callState(id);
      s.call = { ...s.call, ...c };
      s.v++;
      this.changed();
    } catch {
      // Unknown, or the key was refused (the key prompt shows): the view shows what the stream gave.
    }
  }

  private take(e: LiveEvent): void {
    if (e.kind === 'request') {
      this.requests.push(e);
      // The record keeps the last MAX_REQUESTS (older bodies are gone): so does the page, whatever an hour of traffic brings.
      if (this.requests.length > MAX_REQUESTS + 1000) this.requests.splice(0, this.requests.length - MAX_REQUESTS);
    } else if (e.kind === 'delivery') {
      // A call's view and the deliveries tab each replay the record: keep both lists in its order.
      this.deliverySeq.set(e.delivery, e.seq);
      inOrder(this.deliveries, e.delivery, this.deliverySeq);
      // Chat, session and campaign messages belong to no call: they show in the deliveries tab only.
      if (!/^(chat|session|campaign)\./.test(e.delivery.type)) inOrder(this.callState(e.callId).deliveries, e.delivery, this.deliverySeq);
    } else if (e.kind === 'call.status') {
      const s = this.callState(e.callId);
      s.statuses.push({ status: e.status, ...(e.endedReason ? { endedReason: e.endedReason } : {}), at: e.at });
      // The call as it was at this change (a replayed old change carries the call as it is now).
      if (e.call) s.call = { ...s.call, ...e.call };
      if (s.call) s.call.status = e.status;
      s.v++;
    } else if (e.kind === 'call.transcript') {
      const s = this.callState(e.callId);
      const line: Line = { role: e.role, text: e.text, partial: Boolean(e.partial), at: e.at };
      const last = s.lines.findLastIndex((l) => l.role === e.role);
      if (!line.partial && last >= 0 && s.lines[last]?.partial) s.lines[last] = line;
      else s.lines.push(line);
    } else if (e.kind === 'call.log') {
      const s = this.callState(e.callId);
      s.logs.push({ ...(e.level ? { level: e.level } : {}), text: e.text, at: e.at });
    } else if (e.kind === 'campaign') {
      this.campaignChanges++;
    } else if (e.kind === 'call.model' || e.kind === 'call.tool' || e.kind === 'call.turn') {
      // Kept apart from the calls: a chat's model side comes under the chat's id.
      const list = this.model.get(e.callId) ?? [];
      list.push(e);
      this.model.set(e.callId, list);
    }
  }
}

/** Puts a delivery into a list kept in record order (it almost always goes last). */
function inOrder(list: Delivery[], d: Delivery, seqs: WeakMap<Delivery, number>): void {
  const seq = seqs.get(d) ?? 0;
  let at = list.length;
  while (at > 0 && (seqs.get(list[at - 1] as Delivery) ?? 0) > seq) at--;
  list.splice(at, 0, d);
}

/** The page's one live store. */
export const live = new Live();

/** Follows these event kinds (of one call, or all) while the calling view is on screen. */
export function useFollow(kinds: readonly RecordEvent['kind'][], callId?: string): void {
  const key = kinds.join(',');
  useEffect(() => live.follow(key.split(',') as RecordEvent['kind'][], callId), [key, callId]);
}

/** Re-renders on every change of the live store; returns it. */
export function useLive(): Live {
  useSyncExternalStore(live.subscribe, () => live.version);
  return live;
}
