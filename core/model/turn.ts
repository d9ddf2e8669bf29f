// One assistant turn: model step, then the function tools it called (through the host's hooks),
// then the next step with their results, until the model speaks without tools, acts (endCall,
// transferCall, handoff) or fails.
import type { Json } from '../messages/index.js';
import { endedReasonFor } from './failures.js';
import { modelOf } from './request.js';
import { handoffTarget, isAction, modelFunctions, type ModelFunction } from './tools.js';
import type { ChatMessage, ModelGateway, ModelToolCall, StepInput, TurnHooks, TurnResult } from './types.js';

/** Steps a turn may take before it is stopped as a loop. */
export const DEFAULT_MAX_STEPS = 8;

function parseArguments(text: string): Json {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
  } catch {
    return {};
  }
}

function assistantMessage(text: string, calls: ModelToolCall[]): ChatMessage {
  return {
    role: 'assistant',
    content: text || (calls.length ? null : ''),
    ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
  };
}

/** Runs the function tools of one answer: together through `callTools` when the host has it, else one by one. */
async function runTools(hooks: TurnHooks, called: { call: ModelToolCall; tool: Json | undefined }[], toolMs: number[]): Promise<{ result?: string; error?: string }[]> {
  if (!called.length) return [];
  const failed = (err: unknown) => ({ error: (err as Error).message ?? String(err) });
  if (hooks.callTools) {
    const started = performance.now();
    const outcomes = await hooks.callTools(called).catch((err: unknown) => called.map(() => failed(err)));
    toolMs.push(performance.now() - started);
    return called.map((_, i) => outcomes[i] ?? { error: 'no outcome for this tool call' });
  }
  const out: { result?: string; error?: string }[] = [];
  for (const { call, tool } of called) {
    const started = performance.now();
    out.push(await hooks.callTool(call, tool).catch(failed));
    toolMs.push(performance.now() - started);
  }
  return out;
}

/** Runs one assistant turn: model steps and function-tool calls until the model speaks, acts or fails. */
export async function runAssistantTurn(gateway: ModelGateway, input: Omit<StepInput, 'onDelta'>, hooks: TurnHooks, options: { maxSteps?: number } = {}): Promise<TurnResult> {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const functions = new Map<string, ModelFunction>(modelFunctions(input.tools, input.members).map((f) => [f.name, f]));
  const added: ChatMessage[] = [];
  const latencies = { modelMs: [] as number[], toolMs: [] as number[] };
  const texts: string[] = [];
  const done = (extra: Partial<TurnResult> = {}): TurnResult => ({ messages: added, text: texts.join(' ').trim(), latencies, ...extra });

  for (let step = 0; step < maxSteps; step++) {
    const label = input.label !== undefined && step > 0 ? `${input.label} step ${step + 1}` : input.label;
    const result = await gateway.step({
      ...input,
      ...(label !== undefined ? { label } : {}),
      messages: [...input.messages, ...added],
      ...(hooks.onDelta ? { onDelta: (t: string) => hooks.onDelta!(t) } : {}),
    });
    if (result.ok || result.request) hooks.onStep?.({ request: result.request!, result });
    if (!result.ok) return done({ failure: { endedReason: result.endedReason, message: result.message } });
    latencies.modelMs.push(result.firstTokenMs);
    if (result.text) texts.push(result.text);
    added.push(assistantMessage(result.text, result.toolCalls));
    if (!result.toolCalls.length) return done();

    // A built-in action ends the turn: the host carries it out (tools called alongside still run first).
    const actionCall = result.toolCalls.find((c) => isAction(functions.get(c.name)?.kind));
    // Function tools (and the keypad, which the host presses) run now; other actions after the first are dropped.
    const called = result.toolCalls.filter((c) => c !== actionCall && !isAction(functions.get(c.name)?.kind)).map((call) => ({ call, tool: functions.get(call.name)?.tool }));
    for (const [i, outcome] of (await runTools(hooks, called, latencies.toolMs)).entries()) {
      const content = outcome.error !== undefined ? `Error: ${outcome.error}` : (outcome.result ?? '');
      added.push({ role: 'tool', tool_call_id: (called[i] as { call: ModelToolCall }).call.id, content });
    }
    if (actionCall) {
      const fn = functions.get(actionCall.name)!;
      const args = parseArguments(actionCall.arguments);
      if (fn.kind === 'endCall') return done({ action: { kind: 'endCall', tool: fn.tool } });
      if (fn.kind === 'transferCall') return done({ action: { kind: 'transferCall', tool: fn.tool, arguments: args } });
      const assistantName = handoffTarget(fn.tool, args, input.members);
      return done({ action: { kind: 'handoff', tool: fn.tool, arguments: args, ...(assistantName ? { assistantName } : {}) } });
    }
  }
  return done({
    failure: {
      endedReason: endedReasonFor(modelOf(input.assistant).provider, { kind: 'malformed', detail: 'tool loop' }),
      message: `the model kept calling tools: no answer after ${maxSteps} steps (maxSteps)`,
    },
  });
}
