// A chat turn run by the assistant's model: the same model step as calls, with the assistant's
// function tools sent to the developer's servers as `tool-calls` (the chat in place of a call)
// and the results given back to the model, until it answers.
import { randomUUID } from 'node:crypto';
import type { Json, ToolCallData } from '../../messages/index.js';
import { buildServerMessage } from '../../messages/index.js';
import { runAssistantTurn } from '../../model/index.js';
import type { ChatMessage, ModelGateway, TurnResult } from '../../model/index.js';
import { chooseServer, deliver, orgOf, toolsOf, TurnRecorder, withCredential } from '../calls/index.js';
import type { EmulatorRecord } from '../store/record.js';
import type { Store } from '../store/store.js';

type Message = Record<string, unknown>;

/** The stored chat messages (`input`, history) as chat-completions messages. */
export function asChatMessages(messages: readonly Message[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const content = typeof m.content === 'string' ? m.content : m.content == null ? null : JSON.stringify(m.content);
    if (m.role === 'user' || m.role === 'system') out.push({ role: m.role, content: content ?? '' });
    else if (m.role === 'assistant') out.push({ role: 'assistant', content, ...(Array.isArray(m.tool_calls) ? { tool_calls: m.tool_calls as never } : {}) });
    else if (m.role === 'tool' && typeof m.tool_call_id === 'string') out.push({ role: 'tool', tool_call_id: m.tool_call_id, content: content ?? '' });
  }
  return out;
}

/** What a chat's model turn needs. */
export interface ChatTurnDeps {
  store: Store;
  record?: EmulatorRecord;
  gateway: ModelGateway;
  /** The chat's id, known before it is stored, so tool-calls can name it. */
  chatId: string;
  onDelta?: (text: string) => void;
}

function resultOf(answer: Json | undefined, id: string): { result?: string; error?: string } {
  const results = Array.isArray(answer?.results) ? (answer.results as Json[]) : [];
  const mine = results.find((r) => r && r.toolCallId === id) ?? (results.length === 1 ? results[0] : undefined);
  if (!mine) return { error: 'no result for this toolCallId in the answer' };
  if (typeof mine.error === 'string') return { error: mine.error };
  return mine.result === undefined ? { error: 'the result has no "result" field' } : { result: typeof mine.result === 'string' ? mine.result : JSON.stringify(mine.result) };
}

/** Runs one assistant turn of a chat; the result's messages are what the chat outputs. */
export async function chatTurn(deps: ChatTurnDeps, assistant: Json, messages: ChatMessage[]): Promise<TurnResult> {
  const { store } = deps;
  const now = new Date().toISOString();
  const chat = { id: deps.chatId, orgId: store.orgId, createdAt: now, updatedAt: now };
  const callTool = async (call: { id: string; name: string; arguments: string }, tool: Json | undefined): Promise<{ result?: string; error?: string }> => {
    if (!tool) return { error: `the assistant has no tool named ${call.name}` };
    const target = withCredential(chooseServer('tool-calls', { tool, assistant, org: orgOf(store) }), (id) => store.get('credential', id));
    if (!target) return { error: "no server to send tool-calls to (set the tool's, the assistant's or the org's server)" };
    const data: ToolCallData = { call: { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }, tool };
    const message = buildServerMessage('tool-calls', { assistant, data: { toolCalls: [data] } }, { chat });
    if (tool.async === true) {
      if (deps.record) void deliver(deps.record, target, deps.chatId, message);
      return { result: 'Tool called asynchronously.' };
    }
    if (!deps.record) return { error: 'tool calls cannot be delivered here' };
    const done = await deliver(deps.record, target, deps.chatId, message);
    return done.delivery.error ? { error: done.delivery.error } : resultOf(done.answer, call.id);
  };
  // The chat's model side goes into the record under the chat's id (one turn per chat), as a call's does.
  const recorder = deps.record ? new TurnRecorder(deps.record, deps.chatId, 1) : undefined;
  const result = await runAssistantTurn(
    deps.gateway,
    { assistant, tools: toolsOf(store, assistant), messages, label: `chat ${deps.chatId}` },
    {
      callTool: async (call, tool) => {
        const started = performance.now();
        const outcome = await callTool(call, tool);
        recorder?.onTool(call, outcome, performance.now() - started);
        return outcome;
      },
      onStep: (step) => recorder?.onStep(step.request, step.result),
      ...(deps.onDelta ? { onDelta: deps.onDelta } : {}),
    },
  );
  recorder?.finish(result);
  return result;
}

/** A new chat id (the chat is stored after the model answered). */
export function newChatId(): string {
  return randomUUID();
}
