// One function tool call on a running call, scripted or chosen by the model: the call goes into
// the conversation, `tool-calls` goes to the server the platform's precedence picks, and the
// answer (or why there is none) goes into the conversation as the tool's result.
import { randomBytes } from 'node:crypto';
import type { Json, ToolCallData } from '../../messages/index.js';
import { toolResultOf } from '../../messages/answers.js';
import type { CallSession } from './session.js';

/** What a tool call records when its server gave no usable answer. */
export const NO_RESULT = 'No result returned.';

/** A new tool call id in the platform's shape. */
export function toolCallId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}

/**
 * Runs the tool calls of one model answer together, as the platform does: one `tool_calls` entry in
 * the conversation, one `tool-calls` message per server listing every call it answers (sent at
 * once), then each result by its `toolCallId`. Resolves with the outcomes in order, or undefined
 * when the call ended meanwhile.
 */
export async function runToolCalls(s: CallSession, calls: { tool: Json; call: { id: string; name: string; arguments: string } }[]): Promise<{ result?: string; error?: string }[] | undefined> {
  const data: ToolCallData[] = calls.map(({ tool, call }) => ({ call: { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }, tool }));
  s.push({ role: 'tool_calls', message: '', toolCalls: data.map((d) => d.call), ...s.stamp() });
  for (const { call } of calls) s.log(`Tool call ${call.name}(${call.arguments})`);
  const outcomes: { result?: string; error?: string }[] = [];
  // Calls whose tools name the same server (or none: the assistant's) travel in one message; a mocked one goes nowhere.
  const groups = new Map<string, number[]>();
  calls.forEach(({ tool, call }, i) => {
    const mock = s.toolMocks?.get(call.name);
    if (mock !== undefined) return void (outcomes[i] = { result: mock });
    const key = JSON.stringify((tool.server as Json | undefined)?.url ?? null);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  await Promise.all(
    [...groups.values()].map(async (members) => {
      const first = calls[members[0] as number] as { tool: Json };
      const pending = s.send('tool-calls', { toolCalls: members.map((i) => data[i] as ToolCallData) }, { tool: first.tool });
      const waits = members.some((i) => (calls[i] as { tool: Json }).tool.async !== true);
      const delivered = waits ? await s.deps.clock.hold(pending) : undefined;
      for (const i of members) {
        const { tool, call } = calls[i] as (typeof calls)[number];
        if (tool.async === true) outcomes[i] = { result: 'Tool called asynchronously.' };
        else if (!delivered) outcomes[i] = { error: "no server to send tool-calls to (set the tool's, the assistant's, the phone number's or the org's server)" };
        else if (delivered.delivery.error) outcomes[i] = { error: delivered.delivery.error };
        else outcomes[i] = toolResultOf(delivered.answer, call.id);
      }
    }),
  );
  if (s.ended) return undefined;
  calls.forEach(({ call }, i) => {
    const outcome = outcomes[i] as { result?: string; error?: string };
    if (outcome.error) s.log(`Tool ${call.name} failed: ${outcome.error}`, 'WARN');
    s.push({ role: 'tool_call_result', toolCallId: call.id, name: call.name, result: outcome.result ?? NO_RESULT, ...s.stamp() });
  });
  return outcomes;
}

/** Runs one tool call (a scripted one, or one the model made alone): `runToolCalls` with one call. */
export async function runToolCall(s: CallSession, tool: Json, call: { id: string; name: string; arguments: string }): Promise<{ result?: string; error?: string } | undefined> {
  return (await runToolCalls(s, [{ tool, call }]))?.[0];
}

/** The assistant's `dtmf` tool: the tool call is recorded, its keys are pressed (their tones on the assistant's channel), and the result says so. */
export async function pressDtmf(s: CallSession, call: { id: string; name: string; arguments: string }): Promise<{ result?: string; error?: string }> {
  s.push({ role: 'tool_calls', message: '', toolCalls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }], ...s.stamp() });
  let digits: unknown;
  try {
    digits = (JSON.parse(call.arguments || '{}') as { dtmf?: unknown }).dtmf;
  } catch {
    digits = undefined;
  }
  const outcome = typeof digits === 'string' && /^[0-9*#A-D]+$/i.test(digits) ? { result: `Sent DTMF: ${digits}` } : { error: 'dtmf must be the keys to press: digits, * and #' };
  if (outcome.result && !(await s.pressKeys('assistant', digits as string))) return { error: 'the call ended' };
  s.push({ role: 'tool_call_result', toolCallId: call.id, name: call.name, result: outcome.result ?? `Error: ${outcome.error as string}`, ...s.stamp() });
  return outcome;
}
