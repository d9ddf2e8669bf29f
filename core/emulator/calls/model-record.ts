// The model's side of a call in the record: each request to the model and its answer
// (`call.model`), each function tool it called with the server's answer (`call.tool`), and each
// turn's latencies (`call.turn`), so the inspector can show why the assistant said what it said and
// where the time went. Secrets are masked, and a long conversation's oldest messages are left out
// of each request kept, so the record stays small however long the call runs.
import type { Json } from '../../messages/index.js';
import type { StepResult, TurnResult } from '../../model/index.js';
import { maskSecrets, isSecretName, MASK } from '../store/mask.js';
import { MAX_BODY_TEXT, type EmulatorRecord, type ModelStepRecord } from '../store/record.js';

/** A URL without its user info, secret-named query values masked. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const k of [...u.searchParams.keys()]) if (isSecretName(k)) u.searchParams.set(k, MASK);
    return u.toString();
  } catch {
    return url;
  }
}

/** The request body masked and, when larger than MAX_BODY_TEXT, cut to its system messages and newest messages. */
export function keptBody(body: Json): { body: unknown; omittedMessages?: number } {
  const masked = maskSecrets(body) as Record<string, unknown>;
  if (JSON.stringify(masked).length <= MAX_BODY_TEXT || !Array.isArray(masked.messages)) return { body: masked };
  const messages = masked.messages as { role?: unknown }[];
  const system = messages.filter((m) => m.role === 'system');
  const rest = messages.filter((m) => m.role !== 'system');
  let omitted = 0;
  let cut = { ...masked, messages: [...system, ...rest] };
  while (omitted < rest.length && JSON.stringify(cut).length > MAX_BODY_TEXT) {
    omitted++;
    cut = { ...masked, messages: [...system, ...rest.slice(omitted)] };
  }
  return { body: cut, omittedMessages: omitted };
}

/** The record entry of one model step. */
export function modelStepRecord(turn: number, step: number, request: { url: string; body: Json } | undefined, result: StepResult): ModelStepRecord {
  const kept = request ? keptBody(request.body) : { body: {} };
  const base = { turn, step, request: { url: request ? safeUrl(request.url) : '', body: kept.body }, ...(kept.omittedMessages ? { omittedMessages: kept.omittedMessages } : {}) };
  if (!result.ok) return { ...base, ok: false, endedReason: result.endedReason, message: result.message };
  return {
    ...base,
    ok: true,
    text: result.text,
    toolCalls: result.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    firstTokenMs: Math.round(result.firstTokenMs),
    totalMs: Math.round(result.totalMs),
    replayed: result.replayed,
  };
}

/** Records one assistant turn of a call as it runs: its steps, its tool calls, then its latencies. */
export class TurnRecorder {
  private step = 0;
  private modelTotalMs = 0;
  private readonly started = performance.now();

  constructor(
    private readonly record: EmulatorRecord,
    private readonly callId: string,
    private readonly turn: number,
  ) {}

  /** A model step answered (or failed). */
  onStep(request: { url: string; body: Json } | undefined, result: StepResult): void {
    this.step++;
    if (result.ok) this.modelTotalMs += result.totalMs;
    this.record.add({ kind: 'call.model', callId: this.callId, ...modelStepRecord(this.turn, this.step, request, result) });
  }

  /** A function tool the model called got its answer (or failed) after `ms`. */
  onTool(call: { id: string; name: string; arguments: string }, outcome: { result?: string; error?: string }, ms: number): void {
    const { result, error } = outcome;
    this.record.add({
      kind: 'call.tool',
      callId: this.callId,
      turn: this.turn,
      step: this.step,
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      ...(result !== undefined ? { result } : {}),
      ...(error !== undefined ? { error } : {}),
      ms: Math.round(ms),
    });
  }

  /** The turn is over: its latencies. */
  finish(result: TurnResult): void {
    this.record.add({
      kind: 'call.turn',
      callId: this.callId,
      turn: this.turn,
      steps: this.step,
      modelMs: Math.round(result.latencies.modelMs[0] ?? 0),
      modelTotalMs: Math.round(this.modelTotalMs),
      toolMs: Math.round(result.latencies.toolMs.reduce((a, b) => a + b, 0)),
      totalMs: Math.round(performance.now() - this.started),
      ...(result.failure ? { failure: result.failure.message } : {}),
    });
  }
}
