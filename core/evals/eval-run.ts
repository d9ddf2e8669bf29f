// A `chat.mockConversation` eval played against its target: mock messages build the conversation,
// each assistant evaluation asks the target's model for its turn and judges it (exact, regex, AI,
// tool calls), and `continuePlan` decides what the conversation keeps and whether it goes on.
import type { Json } from '../messages/index.js';
import type { ChatMessage, ModelToolCall } from '../model/index.js';
import { judgeAI, judgeExact, judgeRegex } from './judge.js';
import type { Verdict } from './judge.js';
import { NO_MODEL_REASON } from './reasons.js';
import { noModelReason, resolveTarget } from './types.js';
import type { Target, World } from './types.js';
import { objectOf } from '../json.js';

/** An eval run's outcome in the published `EvalRun` fields. */
export interface EvalOutcome {
  endedReason: 'mockConversation.done' | 'error';
  /** Why the run ended otherwise than by reaching the end of the conversation (never set for `mockConversation.done`). */
  endedMessage?: string;
  results: Json[];
}

/** One judged assistant turn: its position among the eval's messages and the verdict. */
export interface Judgement extends Verdict {
  index: number;
  judge: string;
  /** The target's model's time to first token on this turn, and whether the answer was a cassette's. */
  firstTokenMs?: number;
  replayed?: boolean;
}

// Ids count within one run, so the same eval sends the same requests (a cassette replays them).
function idMaker(): () => string {
  let n = 0;
  return () => `call_eval_${++n}`;
}

function mockCalls(calls: unknown, toolCallId: () => string): ModelToolCall[] {
  return (Array.isArray(calls) ? (calls as Json[]) : []).map((c) => ({ id: toolCallId(), name: String(c.name), arguments: JSON.stringify(c.arguments ?? {}) }));
}

function asAssistant(text: string, calls: readonly ModelToolCall[]): ChatMessage {
  return {
    role: 'assistant',
    content: text || null,
    ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
  };
}

/** The published mock shape of an assistant turn (content, tool calls by name and arguments). */
function mockOf(text: string, calls: readonly ModelToolCall[]): Json {
  return { role: 'assistant', ...(text ? { content: text.slice(0, 1000) } : {}), ...(calls.length ? { toolCalls: calls.map((c) => ({ name: c.name, arguments: objectOf(c.arguments) })) } : {}) };
}

/** Plays an eval; never throws. `now` stamps the result. */
export async function runEval(world: World, evalDef: Json, target: Target | undefined, label: string): Promise<EvalOutcome & { judgements: Judgement[] }> {
  const startedAt = new Date(world.now()).toISOString();
  const result = (status: 'pass' | 'fail', messages: Json[]): Json => ({ status, messages, startedAt, endedAt: new Date(world.now()).toISOString() });
  const fail = (message: string): EvalOutcome & { judgements: Judgement[] } => ({ endedReason: 'error', endedMessage: message, results: [result('fail', [])], judgements: [] });
  if (evalDef.type !== undefined && evalDef.type !== 'chat.mockConversation') return fail(`The eval type ${JSON.stringify(evalDef.type)} is not one the local platform runs (chat.mockConversation).`);
  const resolved = resolveTarget(world, target);
  if (typeof resolved === 'string') return fail(`The run could not start: ${resolved}.`);
  let assistant = resolved.members[0] as Json;
  const noModel = noModelReason(world, [assistant], NO_MODEL_REASON);
  if (noModel) return fail(noModel);
  const gateway = world.gateway as NonNullable<World['gateway']>;
  const steps = Array.isArray(evalDef.messages) ? (evalDef.messages as Json[]) : [];
  if (!steps.some((m) => m.judgePlan)) return fail('The eval has no message with a judgePlan, so nothing would be judged.');
  const toolCallId = idMaker();
  const conversation: ChatMessage[] = [];
  const shown: Json[] = [];
  const judgements: Judgement[] = [];
  let lastCalls: ModelToolCall[] = [];
  for (const [index, m] of steps.entries()) {
    const plan = m.judgePlan as Json | undefined;
    if (m.role === 'user' || m.role === 'system') {
      conversation.push({ role: m.role, content: String(m.content ?? '') });
      shown.push({ role: m.role, content: String(m.content ?? '') });
    } else if (m.role === 'tool' && !plan) {
      const call = lastCalls.shift();
      conversation.push({ role: 'tool', tool_call_id: call?.id ?? toolCallId(), content: String(m.content ?? '') });
      shown.push({ role: 'tool', content: String(m.content ?? '') });
    } else if (m.role === 'tool' && plan) {
      // The tool the assistant called runs for real (its server), and the AI judge reads its answer.
      const call = lastCalls.shift();
      if (!call) {
        judgements.push({ index, judge: 'ai', passed: false, reason: 'a tool response is judged, but the assistant made no tool call before it' });
        break;
      }
      const tool = world.tools(assistant).find((t) => (t.function as Json | undefined)?.name === call.name);
      const answer = await world.callTool(call, tool, assistant);
      const content = answer.result ?? `Error: ${answer.error ?? 'no result'}`;
      conversation.push({ role: 'tool', tool_call_id: call.id, content });
      shown.push({ role: 'tool', content });
      const verdict = await judgeAI(gateway, plan, conversation, assistant.model as Json | undefined, `${label} judge ${index + 1}`);
      judgements.push({ index, judge: 'ai', ...verdict });
      (shown[shown.length - 1] as Json).judge = judgeOf(verdict);
    } else if (m.role === 'assistant' && !plan) {
      lastCalls = mockCalls(m.toolCalls, toolCallId);
      conversation.push(asAssistant(String(m.content ?? ''), lastCalls));
      shown.push(mockOf(String(m.content ?? ''), lastCalls));
    } else if (m.role === 'assistant' && plan) {
      const step = await gateway.step({
        assistant,
        tools: world.tools(assistant),
        messages: [...conversation],
        ...(resolved.squad ? { members: resolved.members } : {}),
        label: `${label} turn ${index + 1}`,
      });
      if (!step.ok) return { endedReason: 'error', endedMessage: `The target's model failed at message ${index + 1}: ${step.message}`, results: [result('fail', shown)], judgements };
      const type = String(plan.type ?? '');
      const calls = step.toolCalls;
      const verdict: Verdict =
        type === 'exact'
          ? judgeExact(plan, step.text, calls)
          : type === 'regex'
            ? judgeRegex(plan, step.text, calls)
            : type === 'ai'
              ? await judgeAI(gateway, plan, [...conversation, asAssistant(step.text, calls)], assistant.model as Json | undefined, `${label} judge ${index + 1}`)
              : { passed: false, reason: `unknown judge type ${JSON.stringify(plan.type)}` };
      judgements.push({ index, judge: type, ...verdict, firstTokenMs: step.firstTokenMs, replayed: step.replayed });
      const cont = (m.continuePlan as Json | undefined) ?? {};
      const text = typeof cont.contentOverride === 'string' ? cont.contentOverride : step.text;
      lastCalls = Array.isArray(cont.toolCallsOverride) ? mockCalls(cont.toolCallsOverride, toolCallId) : calls.map((c) => ({ ...c }));
      conversation.push(asAssistant(text, lastCalls));
      shown.push({ ...mockOf(step.text, calls), judge: judgeOf(verdict) });
      if (!verdict.passed && cont.exitOnFailureEnabled === true) break;
      const handoff = calls.find((c) => c.name.startsWith('handoff') || c.name === 'transferCall');
      const next = handoff && resolved.squad ? resolved.members.find((x) => x.name === objectOf(handoff.arguments).destination) : undefined;
      if (next) assistant = next;
    }
  }
  // A run that reached the end has no endedMessage (the reference keeps it for other endings): each judged message says why it failed.
  const failed = judgements.filter((j) => !j.passed);
  return { endedReason: 'mockConversation.done', results: [result(failed.length ? 'fail' : 'pass', shown)], judgements };
}

/** A judged message's verdict as the run's result shows it: `{ status, failureReason }`. */
function judgeOf(verdict: Verdict): Json {
  return verdict.passed ? { status: 'pass' } : { status: 'fail', failureReason: verdict.reason ?? 'no reason given' };
}
