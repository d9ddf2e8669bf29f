// The page's one view of the emulator's record: one EventSource on /__voice/events (replaying
// the record first), folded into calls, deliveries and requests. The stream is compact and
// batched (`lite=1&batch=250`: a few messages a second however busy the emulator is); each status
// change carries a summary of its call, which is all the calls list needs. A call's whole object
// (messages, analysis, costs) is fetched only while its view is open (`loadCall`).
import { useSyncExternalStore } from 'react';
import { MAX_REQUESTS } from '../../../core/emulator/record';
import type { Delivery, RecordEvent } from '../../../core/emulator/record';
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
  artifact?: { recordingUrl?: string };
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
const RENDER_EVERY_MS = 500;

/** An event of the compact stream: a status change carries its call's summary. */
type LiveEvent = Exclude<RecordEvent, { kind: 'call.status' }> | (Extract<RecordEvent, { kind: 'call.status' }> & { call?: ApiCall });

/** A REST request the emulator answered. */
export type RequestEvent = Extract<RecordEvent, { kind: 'request' }>;

class Live {
  readonly calls = new Map<string, CallState>();
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
    this.source = new EventSource('/__voice/events?since=0&lite=1&batch=250');
    this.source.onopen = () => {
      this.connected = true;
      this.everConnected = true;
      this.changed();
    };
    this.source.onerror = () => {
      this.connected = false;
      this.changed();
    };
    this.source.addEventListener('batch', (e: MessageEvent<string>) => {
      for (const one of JSON.parse(e.data) as LiveEvent[]) this.take(one);
      this.changed();
    });
    void api<{ speed: number; apiKeyRequired: boolean }>('/__voice/info').then((info) => {
      this.info = info;
      this.changed();
    }, () => undefined);
    void this.loadCalls();
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
      api<{ id: string; name?: string }[]>('/assistant?limit=1000').then((list) => {
        for (const a of list) this.names.set(a.id, a.name ?? a.id.slice(0, 8));
        this.changed();
      }, () => undefined);
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
      this.deliveries.push(e.delivery);
      const s = this.callState(e.callId);
      s.deliveries.push(e.delivery);
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
    }
  }
}

/** The page's one live store. */
export const live = new Live();

/** Re-renders on every change of the live store; returns it. */
export function useLive(): Live {
  useSyncExternalStore(live.subscribe, () => live.version);
  return live;
}
