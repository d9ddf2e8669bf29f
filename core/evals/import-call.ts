// A recorded call as a `chat.mockConversation` eval that replays it: the caller's words are user
// messages, the recorded tool results are mocked tool messages (no server is called), and every
// assistant turn the model made is judged against what the call did: tool calls by name and
// arguments (an exact pattern each, or by name only when loose), spoken answers by an AI judge told
// the recorded answer and, where the developer says so, what should have happened instead. Each
// judged turn then continues with the recorded turn, so every turn is judged on the call's history.
import type { Json } from '../messages/index.js';
import type { RecordedCall } from './call-record.js';
import type { Budget, RecordedLatency, TestExtension, TurnEntry } from './extension.js';
import { objectOf } from '../json.js';

/** How the import judges and labels the test. */
export interface ImportOptions {
  /** Judge tool calls by name only (arguments that may differ, such as free text). */
  loose?: boolean;
  /** What should have happened instead, by turn number. */
  expect?: ReadonlyMap<number, string>;
  /** The assistant or squad file id the test runs against. */
  target?: string;
  /** Where the call was read, for the provenance (`voice dev http://...`, `file call.json`). */
  from: string;
  importedAt: Date;
  budget?: Budget;
  /** The platform's judge models accept these providers. */
  judgeModel?: { provider: string; model: string };
}

/** One assistant turn of the imported eval, for the import's summary and the YAML comments. */
export interface ImportedTurn {
  turn: number;
  /** 0-based index in the eval's messages. */
  index: number;
  judged: 'tools' | 'speech' | 'expect' | 'greeting';
  text: string;
  calls: { name: string; arguments: Json }[];
  expect?: string;
}

/** The imported eval (the platform's fields plus `x-voice`) and its turns. */
export interface ImportedEval {
  data: Json;
  turns: ImportedTurn[];
  notes: string[];
}

/** The fallback judge model, one every platform plan accepts. */
export const DEFAULT_JUDGE_MODEL = { provider: 'openai', model: 'gpt-4o' } as const;
const JUDGE_PROVIDERS = ['openai', 'anthropic', 'google'];
const MAX = 1000;

function callsOf(m: Json): { name: string; arguments: Json }[] {
  return (Array.isArray(m.toolCalls) ? (m.toolCalls as Json[]) : []).map((c) => {
    const fn = (c.function as Json | undefined) ?? c;
    return { name: String(fn.name ?? ''), arguments: objectOf(fn.arguments) };
  });
}

/** A pattern matching exactly this value as the judge sees it (strings as they are, the rest as JSON). */
export function exactPattern(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return `^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
}

/** What the assistant did in a turn, in words (for a judge's prompt and the summary). */
export function describeRecorded(text: string, calls: readonly { name: string; arguments: Json }[]): string {
  const called = calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(', ');
  if (!calls.length) return `it said ${JSON.stringify(text)}`;
  return text.trim() ? `it said ${JSON.stringify(text)} and called ${called}` : `it called ${called}`;
}

/** The AI judge's instructions for a turn ({{messages}} is the conversation with the reply to judge last). */
export function judgePrompt(recorded: string, expected: string | undefined): string {
  const rule = expected
    ? `That recorded reply was wrong. What should happen instead: ${expected}\nAnswer pass only if the reply does what should happen.`
    : 'Answer pass if the reply means the same as the recorded one (the words may differ) and does not contradict it; answer fail otherwise.';
  return (
    'You are a judge of one reply of a voice assistant, in a replay of a recorded phone call. The reply to judge is the last ' +
    `assistant message of the conversation below, with its tool calls if any.\nIn the recorded call, at this point, ${recorded}.\n${rule}\n` +
    'Answer with exactly one word: pass or fail.\n\nConversation:\n{{messages}}'
  );
}

function latencyOf(t: Json): RecordedLatency {
  const out: RecordedLatency = {};
  const map: [keyof RecordedLatency, string][] = [
    ['firstTokenMs', 'modelLatency'],
    ['voiceMs', 'voiceLatency'],
    ['transcriberMs', 'transcriberLatency'],
    ['endpointingMs', 'endpointingLatency'],
    ['turnMs', 'turnLatency'],
  ];
  for (const [k, from] of map) if (typeof t[from] === 'number' && (t[from] as number) > 0) out[k] = Math.round(t[from] as number);
  return out;
}

const clip = (text: string, notes: string[], what: string): string => {
  if (text.length <= MAX) return text;
  notes.push(`${what} was longer than the platform's ${MAX} characters and was cut`);
  return text.slice(0, MAX);
};

/** Builds the eval that replays a recorded call. */
export function evalFromCall(call: RecordedCall, options: ImportOptions): ImportedEval {
  const notes: string[] = [];
  const messages: Json[] = [];
  const turns: ImportedTurn[] = [];
  // Each reply is the assistant's answer to what came before it; the first may be its greeting.
  const replyStarts: number[] = [];
  let afterUser = true;
  for (const m of call.messages) {
    const role = m.role;
    if (role === 'user') {
      messages.push({ role: 'user', content: clip(String(m.message ?? ''), notes, `The caller's words at message ${messages.length + 1}`) });
      afterUser = true;
    } else if (role === 'bot' || role === 'assistant' || role === 'tool_calls') {
      const text = role === 'tool_calls' ? '' : String(m.message ?? m.content ?? '');
      const calls = role === 'tool_calls' ? callsOf(m) : [];
      const last = turns.at(-1);
      // Words then tool calls with nothing between are one answer of the model.
      if (role === 'tool_calls' && last && last.index === messages.length - 1 && !last.calls.length) last.calls.push(...calls);
      else {
        if (afterUser) replyStarts.push(turns.length);
        turns.push({ turn: turns.length + 1, index: messages.length, judged: 'speech', text, calls });
        messages.push({ role: 'assistant' });
      }
      afterUser = false;
    } else if (role === 'tool_call_result' || role === 'tool') {
      messages.push({ role: 'tool', content: String(m.result ?? m.content ?? '') });
    }
  }
  // A fixed first message is not the model's: it is replayed, not judged.
  const greetingFirst = turns[0]?.index === 0;
  const generated = call.assistant?.firstMessageMode === 'assistant-speaks-first-with-model-generated-message';
  const greetingIsModel = greetingFirst && (generated || (call.turnLatencies.length > 0 && call.turnLatencies.length === replyStarts.length));
  const modelReplies = greetingFirst && !greetingIsModel ? replyStarts.slice(1) : replyStarts;
  if (greetingFirst && !greetingIsModel) (turns[0] as ImportedTurn).judged = 'greeting';
  const model = options.judgeModel ?? judgeModelOf(call.assistant);
  const entries: TurnEntry[] = [];
  modelReplies.forEach((t, k) => {
    const latency = call.turnLatencies[k];
    const recorded = latency ? latencyOf(latency) : {};
    if (Object.keys(recorded).length) entries.push({ turn: t + 1, recorded });
  });
  for (const turn of turns) {
    const expected = options.expect?.get(turn.turn);
    const slot = messages[turn.index] as Json;
    if (turn.judged === 'greeting') {
      Object.assign(slot, { content: clip(turn.text, notes, 'The greeting') });
      if (expected) notes.push(`--expect ${turn.turn} is ignored: turn ${turn.turn} is the fixed first message, not the model's`);
      continue;
    }
    const said = describeRecorded(turn.text, turn.calls);
    if (expected) Object.assign(turn, { judged: 'expect', expect: expected });
    else if (turn.calls.length) turn.judged = 'tools';
    const judgePlan: Json =
      turn.judged === 'tools'
        ? {
            type: 'regex',
            // The words are not judged here (any text matches): the tool calls are.
            content: '.*',
            toolCalls: turn.calls.map((c) => ({
              name: c.name,
              ...(options.loose || !Object.keys(c.arguments).length ? {} : { arguments: Object.fromEntries(Object.entries(c.arguments).map(([k, v]) => [k, exactPattern(v)])) }),
            })),
          }
        : { type: 'ai', model: { ...model, messages: [{ role: 'system', content: judgePrompt(said, expected) }] } };
    slot.judgePlan = judgePlan;
    slot.continuePlan = { contentOverride: clip(turn.text, notes, `The recorded answer of turn ${turn.turn}`), toolCallsOverride: turn.calls.map((c) => ({ name: c.name, arguments: c.arguments })) };
  }
  if (!turns.some((t) => t.judged !== 'greeting')) notes.push('the call has no assistant turn the model made, so the eval judges nothing');
  const ext: TestExtension = {
    ...(options.target ? { target: options.target } : {}),
    source: {
      ...(call.id ? { callId: call.id } : {}),
      ...(call.startedAt ? { startedAt: call.startedAt } : {}),
      ...(call.endedReason ? { endedReason: call.endedReason } : {}),
      from: options.from,
      importedAt: options.importedAt.toISOString(),
      judged: options.loose ? 'tool calls by name only (--loose)' : 'tool calls by name and arguments',
    },
    ...(options.budget && Object.keys(options.budget).length ? { budget: options.budget } : {}),
    ...(entries.length ? { turns: entries } : {}),
  };
  const day = call.startedAt?.slice(0, 10);
  const id = call.id ? call.id.slice(0, 8) : 'recorded';
  const data: Json = {
    name: `Replay of call ${id}${day ? ` (${day})` : ''}`.slice(0, 80),
    type: 'chat.mockConversation',
    description: `Replays call ${call.id ?? '(no id)'}${day ? ` of ${day}` : ''}: the caller's words, the recorded tool results, each assistant turn judged against the recording.`.slice(0, 500),
    messages,
    'x-voice': ext,
  };
  return { data, turns, notes };
}

/** The judge model for an assistant: its own provider and model when a judge plan accepts them. */
export function judgeModelOf(assistant: Json | undefined): { provider: string; model: string } {
  const m = assistant?.model as Json | undefined;
  if (typeof m?.provider === 'string' && JUDGE_PROVIDERS.includes(m.provider) && typeof m.model === 'string') return { provider: m.provider, model: m.model };
  return { ...DEFAULT_JUDGE_MODEL };
}
