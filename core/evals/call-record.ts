// A finished call as `voice test import` reads it, from whatever holds one: a Call (`GET /call/{id}`,
// `voice call get --json`), an end-of-call report (the server message, bare or as `{ message }`), or
// the lines `voice listen --record` writes (one JSON record per message).
import type { Json } from '../messages/index.js';
import { isObject } from '../json.js';

/** What an import needs of a call. */
export interface RecordedCall {
  id?: string;
  startedAt?: string;
  endedReason?: string;
  /** The assistant's or squad's UUID on the platform the call ran on. */
  assistantId?: string;
  squadId?: string;
  /** The assistant's name, first message and model, when the record carries them. */
  assistant?: Json;
  /** The conversation in the platform's own messages (`user`, `bot`, `tool_calls`, `tool_call_result`, `system`). */
  messages: Json[];
  /** The platform's `performanceMetrics.turnLatencies`, one per model turn. */
  turnLatencies: Json[];
  /** What held it: `call` or `end-of-call report`. */
  kind: 'call' | 'end-of-call report';
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

function fromParts(kind: RecordedCall['kind'], call: Json, artifact: Json | undefined, extra: Json): RecordedCall | undefined {
  const messages = (artifact?.messages ?? call.messages ?? (call.artifact as Json | undefined)?.messages) as unknown;
  if (!Array.isArray(messages)) return undefined;
  const perf = ((artifact ?? (call.artifact as Json | undefined))?.performanceMetrics as Json | undefined) ?? {};
  const assistant = (isObject(extra.assistant) ? extra.assistant : isObject(call.assistant) ? call.assistant : undefined) as Json | undefined;
  const pick = (k: string): string | undefined => str(extra[k]) ?? str(call[k]);
  return {
    kind,
    ...(pick('id') ? { id: pick('id') as string } : {}),
    ...(pick('startedAt') ? { startedAt: pick('startedAt') as string } : {}),
    ...(pick('endedReason') ? { endedReason: pick('endedReason') as string } : {}),
    ...(str(call.assistantId) ? { assistantId: call.assistantId as string } : {}),
    ...(str(call.squadId) ? { squadId: call.squadId as string } : {}),
    ...(assistant ? { assistant } : {}),
    messages: (messages as unknown[]).filter(isObject),
    turnLatencies: Array.isArray(perf.turnLatencies) ? (perf.turnLatencies as unknown[]).filter(isObject) : [],
  };
}

/** The call a parsed JSON value holds, or undefined when it holds none. */
export function recordedCallOf(value: unknown): RecordedCall | undefined {
  if (!isObject(value)) return undefined;
  // `{ message: {...} }` as posted to a server, and a `voice listen --record` line.
  const inner = isObject(value.message) ? value.message : undefined;
  if (inner && inner.type === 'end-of-call-report') return recordedCallOf(inner);
  if (value.type === 'end-of-call-report') {
    const call = isObject(value.call) ? value.call : {};
    return fromParts('end-of-call report', call, isObject(value.artifact) ? value.artifact : undefined, {
      id: call.id,
      startedAt: value.startedAt ?? call.startedAt,
      endedReason: value.endedReason,
      assistant: value.assistant,
    });
  }
  if (typeof value.id === 'string' && (isObject(value.artifact) || Array.isArray(value.messages))) return fromParts('call', value, isObject(value.artifact) ? value.artifact : undefined, {});
  return undefined;
}

/** Every call a file's text holds (JSON, or JSON lines), in order; a string says why none could be read. */
export function recordedCallsIn(text: string): RecordedCall[] | string {
  let values: unknown[];
  try {
    values = [JSON.parse(text) as unknown];
  } catch {
    const lines = text.split('\n').filter((l) => l.trim());
    try {
      values = lines.map((l) => JSON.parse(l) as unknown);
    } catch {
      return 'it is neither JSON nor JSON lines';
    }
  }
  if (values.length === 1 && Array.isArray(values[0])) values = values[0] as unknown[];
  const calls = values.map(recordedCallOf).filter((c): c is RecordedCall => c !== undefined);
  return calls.length ? calls : 'it holds no call: expected `voice call get --json` output, an end-of-call report, or `voice listen --record` lines with one';
}
