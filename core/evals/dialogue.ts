// A simulated call in chat form: the tester (a personality's assistant following the scenario's
// instructions) and the target (an assistant, or a squad's members with handoffs) take turns
// through the model step until one ends the call, a step fails, or the turn limit is reached.
import type { Json } from '../messages/index.js';
import { runAssistantTurn } from '../model/index.js';
import type { ChatMessage, ModelGateway, ModelToolCall } from '../model/index.js';
import type { World } from './types.js';

/** Turns each side may take before the call is ended for them. */
export const DEFAULT_MAX_TURNS = 12;

/** A scenario's tool mock: the result the named tool gives instead of its server. */
export interface ToolMock {
  toolName: string;
  result?: string;
  enabled?: boolean;
}

/** What a dialogue needs. */
export interface DialogueInput {
  tester: Json;
  members: Json[];
  toolMocks?: readonly ToolMock[];
  maxTurns?: number;
  /** Names the run in cassette labels (`sim <item> ...`). */
  label: string;
}

/** How a dialogue went: the conversation from the target's side, how it ended, and model latencies. */
export interface Dialogue {
  messages: ChatMessage[];
  endedReason: string;
  /** Set when a model step or the setup failed: the item fails with it. */
  failure?: string;
  toolCalls: { name: string; mocked: boolean; result?: string; error?: string }[];
  modelMs: number[];
}

/** The tester's view: the target's words are the user's, its own the assistant's; tool traffic hidden. */
export function flipped(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'assistant' && m.content) out.push({ role: 'user', content: m.content });
    else if (m.role === 'user') out.push({ role: 'assistant', content: m.content });
  }
  return out;
}

/** The tester: the personality's assistant told the scenario (it hangs up with the endCall tool each step offers). */
export function testerOf(personality: Json, instructions: string, voice = false): Json {
  const assistant = structuredClone((personality.assistant as Json | undefined) ?? {});
  const model: Json = { provider: 'openai', model: 'gpt-4o', ...((assistant.model as Json | undefined) ?? {}) };
  const own = Array.isArray(model.messages) ? (model.messages as Json[]) : [];
  model.messages = [
    ...own,
    {
      role: 'system',
      content: `You are the caller in a test call to an AI assistant. Follow these instructions:\n${instructions}\nSay one thing at a time, as a caller would.${voice ? ' This is a voice call: your words are spoken aloud, and [0.8s] in them is a pause of that many seconds mid-sentence.' : ''} When you are done, end the call with the endCall tool.`,
    },
  ];
  // Its only tool is endCall, given with each step; the personality's own tools stay unused.
  delete model.tools;
  delete model.toolIds;
  return { ...assistant, name: String(personality.name ?? assistant.name ?? 'tester'), model };
}

/** What the tester said next: its words, whether it ended the call, or why its model failed. */
export interface TesterLine {
  text: string;
  end: boolean;
  failure?: { endedReason: string; message: string };
  modelMs: number[];
}

/** The tester's next words, from the conversation as the target saw it (it hangs up with the endCall tool). */
export async function testerSays(gateway: ModelGateway, tester: Json, heard: readonly ChatMessage[], label: string): Promise<TesterLine> {
  const said = await runAssistantTurn(
    gateway,
    { assistant: tester, tools: [{ type: 'endCall' }], messages: flipped(heard), label },
    { callTool: () => Promise.resolve({ error: 'the tester has no tools' }) },
  );
  return {
    text: said.text,
    end: said.action?.kind === 'endCall',
    modelMs: said.latencies.modelMs,
    ...(said.failure ? { failure: { endedReason: said.failure.endedReason, message: `the tester's model failed: ${said.failure.message}` } } : {}),
  };
}

function greeting(assistant: Json): string | undefined {
  const mode = (assistant.firstMessageMode as string | undefined) ?? 'assistant-speaks-first';
  const first = assistant.firstMessage;
  return mode === 'assistant-speaks-first' && typeof first === 'string' && first.trim() ? first : undefined;
}

/** Plays one simulated call. */
export async function playDialogue(world: World, input: DialogueInput): Promise<Dialogue> {
  const gateway = world.gateway;
  const maxTurns = input.maxTurns ?? DEFAULT_MAX_TURNS;
  const messages: ChatMessage[] = [];
  const toolCalls: Dialogue['toolCalls'] = [];
  const modelMs: number[] = [];
  const done = (endedReason: string, failure?: string): Dialogue => ({ messages, endedReason, toolCalls, modelMs, ...(failure ? { failure } : {}) });
  if (!gateway) return done('error', 'no model gateway');
  let target = input.members[0] as Json;
  const mocks = (input.toolMocks ?? []).filter((m) => m.enabled !== false);
  const callTool = async (call: ModelToolCall, tool: Json | undefined): Promise<{ result?: string; error?: string }> => {
    const mock = mocks.find((m) => m.toolName === call.name);
    const outcome = mock ? { result: mock.result ?? '' } : await world.callTool(call, tool, target);
    toolCalls.push({ name: call.name, mocked: Boolean(mock), ...outcome });
    return outcome;
  };
  // Undefined while the call goes on; otherwise how it ended (and why, when a step failed).
  const targetTurn = async (turn: number): Promise<{ reason: string; failure?: string } | undefined> => {
    const members = input.members.length > 1 ? input.members : undefined;
    const result = await runAssistantTurn(
      gateway,
      { assistant: target, tools: world.tools(target), messages: [...messages], ...(members ? { members } : {}), label: `${input.label} target turn ${turn}` },
      { callTool },
    );
    modelMs.push(...result.latencies.modelMs);
    messages.push(...result.messages);
    if (result.failure) return { reason: result.failure.endedReason, failure: `the target's model failed: ${result.failure.message}` };
    if (result.action?.kind === 'endCall') return { reason: 'assistant-ended-call' };
    if (result.action?.kind === 'transferCall') return { reason: 'assistant-forwarded-call' };
    if (result.action?.kind === 'handoff') {
      const name = result.action.assistantName;
      const next = input.members.find((m) => m.name === name);
      if (next) {
        target = next;
        const hello = greeting(next);
        if (hello) messages.push({ role: 'assistant', content: hello });
      }
    }
    return undefined;
  };

  const mode = (target.firstMessageMode as string | undefined) ?? 'assistant-speaks-first';
  const hello = greeting(target);
  if (hello) messages.push({ role: 'assistant', content: hello });
  else if (mode === 'assistant-speaks-first-with-model-generated-message') {
    const outcome = await targetTurn(0);
    if (outcome) return done(outcome.reason, outcome.failure);
  }
  for (let turn = 1; turn <= maxTurns; turn++) {
    const said = await testerSays(gateway, input.tester, messages, `${input.label} tester turn ${turn}`);
    modelMs.push(...said.modelMs);
    if (said.failure) return done(said.failure.endedReason, said.failure.message);
    if (said.text.trim()) messages.push({ role: 'user', content: said.text });
    if (said.end) return done('customer-ended-call');
    const outcome = await targetTurn(turn);
    if (outcome) return done(outcome.reason, outcome.failure);
  }
  return done('exceeded-max-turns');
}
