// The message types the webhook commands know (from core/messages, the one list), checked on
// the command line with the closest names first, and the judgement of a server's answer.
import { answeredMessageTypes, expectsAnswer, FINAL_TRANSCRIPTS, isServerMessageType, serverMessageTypes } from 'voice-agent-core/messages';
import type { ServerMessageType } from 'voice-agent-core/messages';
import { messageProblems as builtMessageProblems } from 'voice-agent-core/messages/testing';
import { messagesOf, validateServerMessageResponse } from 'voice-agent-core/schemas/validate';
import { usageError } from '../errors.js';
import { closestFirst, suggestion } from './closest.js';

type Obj = Record<string, unknown>;

/** A known type, or a usage error listing the known ones (closest first when one is close enough to suggest). */
export function checkType(typed: string, what = 'message type'): ServerMessageType {
  if (isServerMessageType(typed)) return typed;
  const hint = 'voice trigger --list shows them, and which ones expect an answer.';
  const best = suggestion(typed, serverMessageTypes);
  if (!best) throw usageError(`Unknown ${what} "${typed}".\nKnown types: ${serverMessageTypes.join(', ')}`, hint);
  throw usageError(`Unknown ${what} "${typed}". Did you mean ${best}?\nKnown types, closest first: ${closestFirst(typed, serverMessageTypes).join(', ')}`, hint);
}

/** Checks every name of a `--events` list (the final-transcripts subscription name is accepted too). */
export function checkTypes(names: readonly string[], flag: string): string[] {
  for (const n of names) if (n !== FINAL_TRANSCRIPTS) checkType(n, `type in ${flag}`);
  return [...new Set(names)];
}

const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** What is wrong with a tool-calls answer beyond its shape: a result for every call, none for others. */
function toolCallProblems(message: Obj, answer: Obj): string[] {
  if (typeof answer.error === 'string') return [];
  const results = Array.isArray(answer.results) ? answer.results.map(obj) : undefined;
  if (!results) return ['results: missing; answer { "results": [{ "toolCallId": ..., "name": ..., "result": ... }] }'];
  const sent = (Array.isArray(message.toolCallList) ? message.toolCallList : []).map(obj);
  const problems: string[] = [];
  for (const call of sent) {
    if (!results.some((r) => r.toolCallId === call.id)) problems.push(`results: no result for tool call ${String(call.id)} (${String(obj(call.function).name ?? '?')})`);
  }
  results.forEach((r, i) => {
    if (typeof r.toolCallId === 'string' && !sent.some((c) => c.id === r.toolCallId)) problems.push(`results.${i}.toolCallId: "${r.toolCallId}" is not a tool call of this message`);
    if (r.result === undefined && r.error === undefined) problems.push(`results.${i}: neither result nor error`);
  });
  return problems;
}

/** For answers the schema cannot judge alone: the fields of which at least one must be there. */
const ONE_OF: Record<string, { keys: string[]; what: string }> = {
  'assistant-request': { keys: ['assistantId', 'assistant', 'squadId', 'squad', 'workflowId', 'workflow', 'destination', 'error'], what: 'the call has nothing to run' },
  'transfer-destination-request': { keys: ['destination', 'error'], what: 'the transfer has nowhere to go' },
};

/**
 * What is wrong with a server's answer to a message (empty when it is right); undefined when the
 * type expects no answer.
 */
export async function judgeAnswer(message: Obj, answer: unknown): Promise<string[] | undefined> {
  const type = String(message.type);
  if (!expectsAnswer(type)) return undefined;
  if (answer === undefined) return ['no JSON answer: this type expects one'];
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return [`the answer must be a JSON object, not ${Array.isArray(answer) ? 'an array' : answer === null ? 'null' : typeof answer}`];
  // The published ServerMessageResponse wraps the answer in `messageResponse`; both forms are read.
  const inner = obj(answer);
  const body = Object.keys(inner).length === 1 && obj(inner.messageResponse) === inner.messageResponse ? (inner.messageResponse as Obj) : inner;
  const problems = messagesOf(await validateServerMessageResponse(type, body));
  if (type === 'tool-calls') problems.push(...toolCallProblems(message, body));
  const need = ONE_OF[type];
  if (need && !need.keys.some((k) => body[k] !== undefined)) problems.push(`names none of ${need.keys.join(', ')}: ${need.what}`);
  return [...new Set(problems)];
}

/** What is wrong with a message about to be sent (empty when it fits its published schema). */
export async function messageProblems(message: Obj): Promise<string[]> {
  // The same judge the emulator's tests use (it knows `assistant.started` and the schema's known defects).
  return (await builtMessageProblems([message])).map((p) => p.replace(/^[^:]+: /, ''));
}

/** Compiles the answer schemas in the background, so the first answers are judged without delay. */
export function warmJudge(): void {
  void (async () => {
    for (const type of answeredMessageTypes) await validateServerMessageResponse(type, {});
  })().catch(() => undefined);
}
