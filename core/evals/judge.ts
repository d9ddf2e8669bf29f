// The judges of a chat eval's assistant turn: exact (case-insensitive), regex (raw or a JavaScript
// regex literal such as `/riverside/i`) and tool-call checks without a model, and the AI judge
// through the model step, which must answer "pass" or "fail".
import type { Json } from '../messages/index.js';
import type { ChatMessage, ModelGateway, ModelToolCall } from '../model/index.js';
import { objectOf } from '../json.js';

/** What a judge decided, and why when it failed. */
export interface Verdict {
  passed: boolean;
  reason?: string;
}

/** A pattern as users write it: `/body/flags` is a literal, anything else a raw pattern; a bad one throws a SyntaxError. */
export function parseRegex(pattern: string): RegExp {
  const literal = /^\/([\s\S]*)\/([dgimsuvy]*)$/.exec(pattern);
  return literal ? new RegExp(literal[1] as string, literal[2]) : new RegExp(pattern);
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A pattern as a reason says it: an anchored literal (`^Tuesday$`) as the value it matches. */
function wanted(pattern: string): string {
  const literal = /^\^((?:[^\\.*+?^${}()|[\]/]|\\.)*)\$$/.exec(pattern);
  return literal ? JSON.stringify((literal[1] as string).replace(/\\(.)/g, '$1')) : `a match of ${JSON.stringify(pattern)}`;
}

/** Checks the tool calls a judge expects, in order: each name, and each argument exactly or by regex. */
export function judgeToolCalls(expected: readonly Json[] | undefined, actual: readonly ModelToolCall[], mode: 'exact' | 'regex'): Verdict {
  if (!expected) return { passed: true };
  if (expected.length !== actual.length)
    return {
      passed: false,
      reason: `expected ${expected.length} tool call(s) (${expected.map((t) => String(t.name)).join(', ') || 'none'}), the assistant made ${actual.length}${actual.length ? ` (${actual.map((c) => c.name).join(', ')})` : ''}`,
    };
  for (const [i, want] of expected.entries()) {
    const got = actual[i] as ModelToolCall;
    if (got.name !== want.name) return { passed: false, reason: `tool call ${i + 1} is ${got.name}, expected ${String(want.name)}` };
    const args = objectOf(got.arguments);
    for (const [key, value] of Object.entries((want.arguments as Json | undefined) ?? {})) {
      const ok = mode === 'regex' ? parseRegex(String(value)).test(typeof args[key] === 'string' ? (args[key] as string) : JSON.stringify(args[key] ?? '')) : same(args[key], value);
      if (!ok) return { passed: false, reason: `tool call ${got.name}: argument ${key} is ${JSON.stringify(args[key])}, expected ${mode === 'regex' ? wanted(String(value)) : JSON.stringify(value)}` };
    }
  }
  return { passed: true };
}

/** What the assistant did, for a reason: its words, and its tool calls when it made any. */
export function describeTurn(text: string, calls: readonly ModelToolCall[]): string {
  const called = calls.map((c) => `${c.name}(${c.arguments || '{}'})`).join(', ');
  if (!calls.length) return `the assistant said ${JSON.stringify(text)}`;
  return text.trim() ? `the assistant said ${JSON.stringify(text)} and called ${called}` : `the assistant said nothing and called ${called}`;
}

/** The exact judge: the content equals (ignoring case and surrounding space), and the tool calls match. */
export function judgeExact(plan: Json, text: string, calls: readonly ModelToolCall[]): Verdict {
  const want = String(plan.content ?? '');
  if (text.trim().toLowerCase() !== want.trim().toLowerCase()) return { passed: false, reason: `expected exactly ${JSON.stringify(want)}, ${describeTurn(text, calls)}` };
  return judgeToolCalls(plan.toolCalls as Json[] | undefined, calls, 'exact');
}

/** The regex judge: the pattern matches some part of the content, and the tool calls match. */
export function judgeRegex(plan: Json, text: string, calls: readonly ModelToolCall[]): Verdict {
  const pattern = String(plan.content ?? '');
  let re: RegExp;
  try {
    re = parseRegex(pattern);
  } catch (e) {
    return { passed: false, reason: `the pattern ${pattern} is not a valid regular expression (${(e as Error).message})` };
  }
  if (!re.test(text)) return { passed: false, reason: `${pattern} does not match ${JSON.stringify(text)}${calls.length ? ` (${describeTurn(text, calls)})` : ''}` };
  return judgeToolCalls(plan.toolCalls as Json[] | undefined, calls, 'regex');
}

const DEFAULT_JUDGE_PROMPT =
  "You are a judge of an AI assistant's replies in a conversation. Read the conversation below and decide whether " +
  "the assistant's last message is acceptable. Answer with exactly one word: pass or fail.\n\nConversation:\n{{messages}}";

/** Fills the `{{messages}}` and `{{messages[-1]}}` variables of a judge prompt. */
export function renderJudgePrompt(text: string, conversation: readonly ChatMessage[]): string {
  return text.replace(/\{\{\s*messages\[-1\]\s*\}\}/g, JSON.stringify(conversation[conversation.length - 1] ?? null)).replace(/\{\{\s*messages\s*\}\}/g, JSON.stringify(conversation));
}

/** The AI judge: the plan's model (or the target's) reads the conversation and answers pass or fail. */
export async function judgeAI(gateway: ModelGateway, plan: Json, conversation: readonly ChatMessage[], fallbackModel: Json | undefined, label: string): Promise<Verdict> {
  // Only the target's provider and model name: its prompt is no judge's prompt.
  const model: Json = plan.model ? { ...(plan.model as Json) } : { provider: fallbackModel?.provider, model: fallbackModel?.model };
  const own = Array.isArray(model.messages) ? (model.messages as Json[]) : [];
  const messages = own.length
    ? own.map((m) => ({ ...m, content: renderJudgePrompt(String(m.content ?? ''), conversation) }))
    : [{ role: 'system', content: renderJudgePrompt(DEFAULT_JUDGE_PROMPT, plan.autoIncludeMessageHistory === false ? [] : conversation) }];
  const assistant: Json = { name: 'judge', model: { ...model, messages } };
  if (!gateway.configured(assistant)) return { passed: false, reason: 'the AI judge has no model to call' };
  const result = await gateway.step({ assistant, tools: [], messages: [], label });
  if (!result.ok) return { passed: false, reason: `the AI judge's model failed: ${result.message}` };
  const word = result.text
    .trim()
    .toLowerCase()
    .replace(/[^a-z]/g, ' ')
    .trim()
    .split(/\s+/)[0];
  if (word === 'pass') return { passed: true };
  if (word === 'fail') return { passed: false, reason: `the AI judge answered ${JSON.stringify(result.text.trim())}` };
  return { passed: false, reason: `the AI judge must answer "pass" or "fail", it answered ${JSON.stringify(result.text.trim())}` };
}
