// What `voice call watch` shows: the events of one call (status changes, who said what, tool
// calls and results, the end), worked out from a Call object or from the emulator's stream,
// and the line each becomes.
import { AUDIO_OFF_NOTE } from '#core/emulator/calls/audio/port';
import { isObject } from '#core/json';
import type { Line } from '../../webhook/lines.js';
import { endedText, short, speaker, toolCallText } from '../../webhook/summary.js';

type Obj = Record<string, unknown>;

/** One thing that happened in a call. */
export type WatchEvent =
  | { kind: 'status'; at: Date; status: string }
  | { kind: 'say'; at: Date; role: string; text: string }
  | { kind: 'tool-call'; at: Date; id?: string; call: string }
  | { kind: 'tool-result'; at: Date; id?: string; name: string; result: string }
  | { kind: 'ended'; at: Date; endedReason: string; text: string; cost?: number; durationSeconds?: number }
  /** A warning or error from the call's log (the emulator's: a scripted conversation, a model failure). */
  | { kind: 'note'; at: Date; level: string; text: string };

const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const dateOf = (v: unknown, fallback: Date): Date => (typeof v === 'number' ? new Date(v) : typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v) : fallback);

/**
 * The events of one recorded conversation turn (`call.messages` / `artifact.messages`), at `now`,
 * or at the recorded time with `recorded` (the story of a call that had ended before watching).
 */
export function turnEvents(turn: unknown, now: Date, recorded = false): WatchEvent[] {
  const t = obj(turn);
  const at = recorded ? dateOf(t.time, now) : now;
  switch (t.role) {
    case 'bot':
    case 'assistant':
    case 'user':
      return typeof t.message === 'string' && t.message !== '' ? [{ kind: 'say', at, role: speaker(t.role), text: t.message }] : [];
    case 'tool_calls':
      return (Array.isArray(t.toolCalls) ? t.toolCalls : []).map((c) => ({ kind: 'tool-call' as const, at, id: String(obj(c).id ?? ''), call: toolCallText(c) }));
    case 'tool_call_result':
      return [{ kind: 'tool-result', at, id: String(t.toolCallId ?? ''), name: String(t.name ?? '?'), result: typeof t.result === 'string' ? t.result : JSON.stringify(t.result) }];
    default:
      return [];
  }
}

/** The conversation turns a Call holds. */
export function turnsOf(call: Obj): unknown[] {
  if (Array.isArray(call.messages)) return call.messages;
  const art = obj(call.artifact).messages;
  return Array.isArray(art) ? art : [];
}

/** The `ended` event of an ended call (at `now`, or at its recorded end with `recorded`). */
export function endedEvent(call: Obj, now: Date, recorded = false): WatchEvent {
  const start = Date.parse(String(call.startedAt ?? ''));
  const end = Date.parse(String(call.endedAt ?? ''));
  const durationSeconds = Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, (end - start) / 1000) : undefined;
  return {
    kind: 'ended',
    at: recorded ? dateOf(call.endedAt, now) : now,
    endedReason: String(call.endedReason ?? 'unknown'),
    text: endedText(call),
    ...(typeof call.cost === 'number' ? { cost: call.cost } : {}),
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
  };
}

/** What a poller has already shown of a call. */
export interface Seen {
  status?: string;
  turns: number;
}

/**
 * The new events between what was seen and the call as it is now (pure; updates `seen`). A call
 * first seen ended is told with its recorded times; live changes carry the time they were seen.
 */
export function diffCall(seen: Seen, call: Obj, now = new Date()): WatchEvent[] {
  const events: WatchEvent[] = [];
  const recorded = seen.status === undefined && call.status === 'ended';
  const status = typeof call.status === 'string' ? call.status : undefined;
  const ended = status === 'ended';
  if (status && status !== seen.status && !ended) events.push({ kind: 'status', at: now, status });
  const turns = turnsOf(call);
  for (const turn of turns.slice(seen.turns)) events.push(...turnEvents(turn, now, recorded));
  seen.turns = Math.max(seen.turns, turns.length);
  if (ended && seen.status !== 'ended') {
    // A call the emulator scripted (no model configured) or ran without sound says so where its story is told.
    const summary = obj(call.analysis).summary;
    const from = typeof summary === 'string' ? Math.min(...[SCRIPTED, AUDIO_OFF_NOTE].map((m) => summary.indexOf(m)).filter((i) => i >= 0)) : Infinity;
    if (typeof summary === 'string' && Number.isFinite(from)) events.push({ kind: 'note', at: now, level: 'WARN', text: summary.slice(from) });
    events.push(endedEvent(call, now, recorded));
  }
  if (status) seen.status = status;
  return events;
}

/** How the emulator's scripted calls begin their note (the rest says how to configure a model). */
export const SCRIPTED = 'No model is configured';

const WIDTHS = [12] as const;

/** The line an event becomes. */
export function watchLine(e: WatchEvent): Line {
  switch (e.kind) {
    case 'status':
      return { time: e.at, columns: ['status', e.status], widths: WIDTHS, tone: 'dim', json: { event: 'status', status: e.status } };
    case 'say':
      return { time: e.at, columns: [e.role, e.text], widths: WIDTHS, json: { event: 'transcript', role: e.role, text: e.text } };
    case 'tool-call':
      return { time: e.at, columns: ['tool call', e.call], widths: WIDTHS, tone: 'warn', json: { event: 'tool-call', id: e.id ?? null, call: e.call } };
    case 'tool-result':
      return {
        time: e.at,
        columns: ['tool result', `${e.name} -> ${short(e.result, 160)}`],
        widths: WIDTHS,
        tone: 'warn',
        json: { event: 'tool-result', id: e.id ?? null, name: e.name, result: e.result },
      };
    case 'ended':
      return {
        time: e.at,
        columns: ['ended', e.text],
        widths: WIDTHS,
        tone: 'ok',
        json: { event: 'ended', endedReason: e.endedReason, cost: e.cost ?? null, durationSeconds: e.durationSeconds ?? null },
      };
    case 'note':
      return { time: e.at, columns: [e.level === 'ERROR' ? 'error' : 'note', e.text], widths: WIDTHS, tone: 'warn', json: { event: 'note', level: e.level, text: e.text } };
  }
}
