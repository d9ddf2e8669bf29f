// How the platform reads a server's answer to a message: the one place that decides what is
// accepted, used by the emulator's calls (to act on the answer), `voice trigger` and `voice listen`
// (to judge it). The published answer schemas mark some fields required that the platform's own
// guides leave out and the platform reads without: those are notes, never failures.
import type { AnsweredMessageType, Json } from './types.js';
import { answeredMessageTypes } from './types.js';
import { isObject } from '../json.js';

/** What is wrong with an answer (`problems`: the platform would not accept it) and what is merely worth knowing (`notes`). */
export interface AnswerVerdict {
  problems: string[];
  notes: string[];
}

/** What a tool call's answer gives: its result, or why there is none. */
export interface ToolOutcome {
  result?: string;
  error?: string;
}

/** What a `transfer-destination-request` or `handoff-destination-request` answer asks for. */
export interface DestinationAnswer {
  destination?: Json;
  /** Why the server refused the transfer or handoff (its `error`). */
  error?: string;
  /** The tool result to record for the handoff tool call (`result`). */
  result?: string;
  /** What to say while transferring (`message`, a tool message). */
  message?: Json;
}

/**
 * Fields a published answer schema lists as required although the platform reads the answer
 * without them (its guides show `{ results: [{ toolCallId, result }] }` with no `name`).
 */
const NOT_NEEDED: Partial<Record<AnsweredMessageType, RegExp>> = {
  'tool-calls': /^results\.\d+\.name$/,
  // An `error` alone refuses the handoff (the schema's own description); ONE_OF still wants one of the two.
  'handoff-destination-request': /^destination$/,
};

/** The fields of an `assistant-request` answer that name what runs the call (the emulator runs the first it finds). */
export const RUNS_THE_CALL = ['assistantId', 'assistant', 'squadId', 'squad', 'workflowId', 'workflow'] as const;

/** Fields of which at least one must be there, for answers the schema cannot judge alone. */
const ONE_OF: Partial<Record<AnsweredMessageType, { keys: string[]; what: string }>> = {
  'assistant-request': { keys: [...RUNS_THE_CALL, 'destination', 'error'], what: 'the call has nothing to run' },
  'transfer-destination-request': { keys: ['destination', 'error'], what: 'the transfer has nowhere to go' },
  'handoff-destination-request': { keys: ['destination', 'error'], what: 'the handoff has nowhere to go' },
  'knowledge-base-request': { keys: ['documents', 'message'], what: 'the knowledge base gave nothing, so the turn goes on without documents' },
};

const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** The answer object itself: the published `ServerMessageResponse` wraps it in `messageResponse`, and both forms are read. */
export function unwrapAnswer(answer: unknown): Json | undefined {
  if (!isObject(answer)) return undefined;
  return isObject(answer.messageResponse) ? answer.messageResponse : answer;
}

/** The outcome of one tool call from a `tool-calls` answer, matched by `toolCallId`. */
export function toolResultOf(answer: Json | undefined, toolCallId: string): ToolOutcome {
  const results = Array.isArray(answer?.results) ? answer.results.map(obj) : [];
  const mine = results.find((r) => r.toolCallId === toolCallId);
  if (!mine) return { error: typeof answer?.error === 'string' ? answer.error : `no result for tool call ${toolCallId} in the answer` };
  if (typeof mine.error === 'string') return { error: mine.error };
  if (mine.result === undefined) return { error: 'the result has neither "result" nor "error"' };
  return { result: typeof mine.result === 'string' ? mine.result : JSON.stringify(mine.result) };
}

/** What a transfer or handoff destination answer asks for. */
export function destinationOf(answer: Json | undefined): DestinationAnswer {
  if (!answer) return { error: 'no answer' };
  const out: DestinationAnswer = {};
  if (isObject(answer.destination)) out.destination = answer.destination;
  if (typeof answer.error === 'string' && answer.error) out.error = answer.error;
  if (typeof answer.result === 'string') out.result = answer.result;
  if (isObject(answer.message)) out.message = answer.message;
  if (!out.destination && !out.error) out.error = 'the answer names no destination';
  return out;
}

/** What is wrong with a tool-calls answer beyond its shape: a result for every call (matched by `toolCallId`, as `toolResultOf` reads it), none for others. */
function toolCallProblems(message: Json, answer: Json): string[] {
  if (typeof answer.error === 'string') return [];
  if (!Array.isArray(answer.results)) return ['results: missing; answer { "results": [{ "toolCallId": ..., "result": ... }] }'];
  const results = answer.results.map(obj);
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

/**
 * Judges a server's answer to a message as the platform reads it; undefined when the type
 * expects no answer. Schema errors on fields the platform does not need become notes.
 */
export async function judgeAnswer(message: Json, answer: unknown): Promise<AnswerVerdict | undefined> {
  const type = String(message.type) as AnsweredMessageType;
  if (!(answeredMessageTypes as readonly string[]).includes(type)) return undefined;
  if (answer === undefined) return { problems: ['no JSON answer: this type expects one'], notes: [] };
  const body = unwrapAnswer(answer);
  if (!body) return { problems: [`the answer must be a JSON object, not ${Array.isArray(answer) ? 'an array' : answer === null ? 'null' : typeof answer}`], notes: [] };
  // The schemas load on first use: importing this module for `toolResultOf` costs nothing.
  const { validateServerMessageResponse } = await import('../schemas/validate.js');
  const lenient = NOT_NEEDED[type];
  const problems: string[] = [];
  const notes: string[] = [];
  for (const e of await validateServerMessageResponse(type, body)) {
    if (lenient?.test(e.path) && e.rule === 'required') notes.push(`${e.path} is not given: the published schema lists it as required, the platform does not need it`);
    else problems.push(e.message);
  }
  if (type === 'tool-calls') problems.push(...toolCallProblems(message, body));
  const need = ONE_OF[type];
  if (need && !need.keys.some((k) => body[k] !== undefined)) problems.push(`names none of ${need.keys.join(', ')}: ${need.what}`);
  return { problems: [...new Set(problems)], notes: [...new Set(notes)] };
}
