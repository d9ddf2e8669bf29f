// Follows a call through the emulator's live stream (`GET /__voice/events?callId=`, server-sent
// events): statuses and transcript lines as they happen, tool calls from the `tool-calls`
// deliveries with their answers, then the ended call read once through the API.
import { CONTROL_PATHS } from '#core/emulator/control/paths';
import { isObject } from '#core/json';
import { endedEvent, turnEvents } from './watch-events.js';
import type { WatchEvent } from './watch-events.js';
import { toolCallText } from '../../webhook/summary.js';

type Obj = Record<string, unknown>;

/** The emulator's stream of one call's events (`/__voice/events`). */
export const EVENTS_PATH = CONTROL_PATHS.events;

const obj = (v: unknown): Obj => (isObject(v) ? v : {});

/** Parses server-sent events from text chunks; calls `onEvent(name, data)` for each complete one. */
export function sseParser(onEvent: (name: string, data: string) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const at = line.indexOf(':');
        const field = at < 0 ? line : line.slice(0, at);
        const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
        if (field === 'event') name = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length) onEvent(name, data.join('\n'));
    }
  };
}

/** Tool calls already shown (by id), so the ended call's record adds only the ones not seen live. */
export interface StreamSeen {
  tools: Set<string>;
  results: Set<string>;
  status?: string;
}

/** The watch events of one record event of the stream (pure; updates `seen`). */
export function streamEvents(e: Obj, seen: StreamSeen): WatchEvent[] {
  const at = typeof e.at === 'string' ? new Date(e.at) : new Date();
  switch (e.kind) {
    case 'call.status': {
      const status = String(e.status);
      if (status === seen.status || status === 'ended') return [];
      seen.status = status;
      return [{ kind: 'status', at, status }];
    }
    case 'call.log':
      // Warnings and errors only: a scripted conversation, a model failure, a tool server that failed.
      return e.level === 'WARN' || e.level === 'ERROR' ? [{ kind: 'note', at, level: String(e.level), text: String(e.text ?? '') }] : [];
    case 'call.transcript':
      if (e.partial) return [];
      return [{ kind: 'say', at, role: e.role === 'user' ? 'customer' : 'assistant', text: String(e.text ?? '') }];
    case 'delivery': {
      const d = obj(e.delivery);
      if (d.replayOf) return [];
      const message = obj(obj(obj(d.request).body).message);
      if (message.type !== 'tool-calls') return [];
      const calls = (Array.isArray(message.toolCallList) ? message.toolCallList : []).map(obj);
      const results = (Array.isArray(obj(d.answer).results) ? (obj(d.answer).results as unknown[]) : []).map(obj);
      const out: WatchEvent[] = [];
      for (const c of calls) {
        const id = String(c.id ?? '');
        if (!seen.tools.has(id)) out.push({ kind: 'tool-call', at, id, call: toolCallText(c) });
        seen.tools.add(id);
        const r = results.find((x) => x.toolCallId === id) ?? (results.length === 1 && calls.length === 1 ? results[0] : undefined);
        const name = String(obj(c.function).name ?? '?');
        const text = r
          ? typeof r.result === 'string'
            ? r.result
            : r.error !== undefined
              ? `error: ${String(r.error)}`
              : JSON.stringify(r.result)
          : `no result (${typeof d.error === 'string' ? d.error : `HTTP ${String(d.status)}`})`;
        out.push({ kind: 'tool-result', at, id, name, result: text });
        seen.results.add(id);
      }
      return out;
    }
    default:
      return [];
  }
}

/** The events an ended call adds: tool calls never seen live (no server got them), then the end. */
export function endEvents(call: Obj, seen: StreamSeen, now = new Date()): WatchEvent[] {
  const out: WatchEvent[] = [];
  const turns = Array.isArray(call.messages) ? call.messages : Array.isArray(obj(call.artifact).messages) ? (obj(call.artifact).messages as unknown[]) : [];
  for (const turn of turns) {
    const role = obj(turn).role;
    if (role !== 'tool_calls' && role !== 'tool_call_result') continue;
    for (const ev of turnEvents(turn, now)) {
      const id = 'id' in ev ? String(ev.id) : '';
      const set = ev.kind === 'tool-call' ? seen.tools : seen.results;
      if (set.has(id)) continue;
      set.add(id);
      // Shown late (no server received the tool call live), so the line says when it happened.
      const t = obj(turn).secondsFromStart;
      out.push(ev.kind === 'tool-call' && typeof t === 'number' ? { ...ev, call: `${ev.call}  (at ${t} s into the call; no server got it live)` } : ev);
    }
  }
  out.push(endedEvent(call, now));
  return out;
}

/** How to follow. */
export interface StreamOptions {
  baseUrl: string;
  headers: Record<string, string>;
  onEvent(event: WatchEvent): void;
  /** Reads the call through the API once it has ended. */
  getCall(id: string): Promise<Obj>;
  signal?: AbortSignal;
}

/**
 * Follows a call on the emulator's stream. Resolves `'ended'` when it ends, `'unavailable'` when
 * the server offers no stream (the hosted platform), `'lost'` when the stream broke off.
 */
export async function streamCall(id: string, opts: StreamOptions, seen: StreamSeen = { tools: new Set(), results: new Set() }): Promise<'ended' | 'unavailable' | 'lost'> {
  const aborts = new AbortController();
  const signal = opts.signal ? AbortSignal.any([aborts.signal, opts.signal]) : aborts.signal;
  let res: Response;
  // A connect timeout of our own: a timeout signal given to fetch would also cut the stream later.
  const connecting = setTimeout(() => aborts.abort(), 10_000);
  try {
    res = await fetch(`${opts.baseUrl}${EVENTS_PATH}?callId=${encodeURIComponent(id)}&since=0`, { headers: { accept: 'text/event-stream', ...opts.headers }, signal });
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(connecting);
  }
  if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await res.body?.cancel().catch(() => undefined);
    return 'unavailable';
  }
  let ended = false;
  const parse = sseParser((_name, data) => {
    if (ended) return;
    let e: Obj;
    try {
      e = JSON.parse(data) as Obj;
    } catch {
      return;
    }
    for (const ev of streamEvents(e, seen)) opts.onEvent(ev);
    if (e.kind === 'call.status' && e.status === 'ended') ended = true;
  });
  const decoder = new TextDecoder();
  try {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parse(decoder.decode(value, { stream: true }));
      if (ended) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  } catch {
    if (!ended) return 'lost';
  } finally {
    aborts.abort();
  }
  if (!ended) return 'lost';
  for (const ev of endEvents(await opts.getCall(id), seen)) opts.onEvent(ev);
  return 'ended';
}
