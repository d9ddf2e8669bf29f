// The conversation of an answered call: the first message, then the customer's turns from the
// scenario with the assistant's replies, tool calls answered by the developer's servers, squad
// handoffs and hang-ups. Without a model the replies are stand-ins (and the call says it was
// scripted); tool results are real. With a model, conversation-model.ts runs the call instead.
import type { Json } from '../../messages/index.js';
import { argumentsFor } from './arguments.js';
import { toolName, toolsOf } from './resolve.js';
import type { Scenario, ScenarioTool } from './scenario.js';
import type { CallSession } from './session.js';
import { pressDtmf, runToolCall, toolCallId } from './tools.js';
import { NO_MODEL_HINT } from '../../model/index.js';
import { converseWithModel } from './conversation-model.js';
import { hangUp } from './control.js';
import { customerTurns } from './scenario-turns.js';
import { greet } from './greeting.js';
import { handoffTo, moveToAssistant, transferCall } from './transfer.js';

export { GENERATED_GREETING, greet } from './greeting.js';

/** What the assistant says when it has no scripted line (no model runs in the emulator). */
export const STAND_IN_REPLY = 'Sure, I can help with that.';

/** The function tools an assistant has (`model.tools` and `model.toolIds`). */
function functionTools(s: CallSession): Json[] {
  return toolsOf(s.deps.store, s.assistant).filter((t) => t.type === 'function' && toolName(t));
}

function hasEndCallTool(s: CallSession): boolean {
  return toolsOf(s.deps.store, s.assistant).some((t) => t.type === 'endCall');
}

/** Marks a call scripted because no model is configured, and says so in its log (the inspector and `voice call watch` show it). */
export function scriptedNote(s: CallSession): void {
  s.scripted = true;
  s.log(`Scripted conversation: ${NO_MODEL_HINT}`, 'WARN');
}

/** Calls tools one by one: `tool-calls` to their server, the answer into the conversation, then spoken. */
export async function callTools(s: CallSession, wanted: { tool: Json; arguments: Json }[]): Promise<void> {
  for (const { tool, arguments: args } of wanted) {
    if (s.ended) return;
    const name = toolName(tool) as string;
    const outcome = await runToolCall(s, tool, { id: toolCallId(), name, arguments: JSON.stringify(args) });
    if (!outcome) return;
    await s.speak('assistant', outcome.result ?? `Sorry, I could not complete ${name} just now.`);
  }
}

/** The tools a scenario turn names, matched to the assistant's tools by function name (or type: `transferCall`, `handoff`); unknown names are logged and skipped. */
function scripted(s: CallSession, names: ScenarioTool[]): { tool: Json; arguments: Json }[] {
  const tools = toolsOf(s.deps.store, s.assistant);
  const out: { tool: Json; arguments: Json }[] = [];
  for (const want of names) {
    const tool = tools.find((t) => toolName(t) === want.name) ?? tools.find((t) => BY_TYPE.has(String(t.type)) && t.type === want.name);
    if (!tool || (tool.type !== 'function' && !BY_TYPE.has(String(tool.type)))) {
      s.log(`Scenario names tool "${want.name}" but the assistant has no function, transferCall, handoff or dtmf tool of that name`, 'WARN');
      continue;
    }
    out.push({ tool, arguments: want.arguments ?? argumentsFor((tool.function as Json | undefined)?.parameters as Json | undefined) });
  }
  return out;
}

/** Tool types that move the call instead of asking a server for a result. */
const MOVES = new Set(['transferCall', 'handoff']);

/** Tool types a scenario may name by type when they have no function name: the moves, and the keypad. */
const BY_TYPE = new Set([...MOVES, 'dtmf']);

/** Calls scripted tools in order; a transferCall or handoff tool that moves the call ends the turn's tools. */
async function runScripted(s: CallSession, wanted: { tool: Json; arguments: Json }[], members: Json[] | undefined): Promise<void> {
  for (const w of wanted) {
    if (s.ended) return;
    if (w.tool.type === 'dtmf') {
      await pressDtmf(s, { id: toolCallId(), name: toolName(w.tool) ?? 'dtmf', arguments: JSON.stringify(w.arguments) });
      continue;
    }
    if (!MOVES.has(String(w.tool.type))) {
      await callTools(s, [w]);
      continue;
    }
    const name = toolName(w.tool) ?? String(w.tool.type);
    const id = toolCallId();
    s.push({ role: 'tool_calls', message: '', toolCalls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(w.arguments) } }], ...s.stamp() });
    s.log(`Tool call ${name}(${JSON.stringify(w.arguments)})`);
    const outcome =
      w.tool.type === 'transferCall'
        ? await transferCall(s, w.tool, w.arguments, { toolCallId: id, ...(members ? { members } : {}) })
        : await handoffTo(s, members, w.tool, w.arguments, { toolCallId: id });
    if (outcome.moved) return;
    if (!s.ended) await s.speak('assistant', `Sorry, I could not complete ${name} just now.`);
  }
}

/** Hands the call to the squad member whose assistant has this name. */
export async function handoff(s: CallSession, members: Json[] | undefined, name: string, who = 'Scenario'): Promise<void> {
  const next = members?.find((m) => m.name === name);
  if (!next) {
    s.log(`${who} hands off to "${name}" but the call has no squad member of that name`, 'WARN');
    return;
  }
  await moveToAssistant(s, next, { type: 'assistant', assistantName: name });
}

/** Ends the call the way the assistant does: its end-call message, then `assistant-ended-call`. */
async function assistantEnds(s: CallSession): Promise<void> {
  const msg = s.assistant?.endCallMessage;
  if (typeof msg === 'string' && msg.trim()) await s.speak('assistant', msg, { source: 'end' });
  await hangUp(s);
}

/** Runs the customer's turns until someone hangs up or the script ends: the model's when one is configured for the assistant, else scripted. */
export async function converse(s: CallSession, scenario: Scenario, members?: Json[]): Promise<void> {
  const model = s.deps.model;
  if (model?.configured(s.assistant)) return converseWithModel(s, model, scenario, members);
  scriptedNote(s);
  void s.send('assistant.started', { newAssistant: s.assistant ?? {} });
  const reply = (): Promise<boolean> => s.speak('assistant', STAND_IN_REPLY);
  s.talk = { reply, remember: () => undefined };
  const turns = customerTurns(s, scenario, reply);
  if (!(await turns.opening(() => greet(s)))) return;
  // Without scripted tool calls, the assistant calls each of its function tools once after the first words.
  const anyScripted = scenario.turns.some((t) => t.tools !== undefined);
  let defaultsDone = anyScripted;
  for (const [i, turn] of scenario.turns.entries()) {
    if (s.ended || !(await turns.before(i))) return;
    const last = i === scenario.turns.length - 1;
    // A turn endpointing makes of the line before its end gets the stand-in reply; the line's last one what follows here.
    if (turn.say !== undefined && !(await s.customerSays(turn.say, (_heard, lastPart) => (lastPart ? Promise.resolve(true) : reply())))) return;
    if (!(await turns.keys(turn))) return;
    if (turn.hangup) return s.finish('customer-ended-call');
    let tools = turn.tools ? scripted(s, turn.tools) : [];
    if (!defaultsDone && turn.say !== undefined) {
      defaultsDone = true;
      tools = functionTools(s).map((tool) => ({ tool, arguments: argumentsFor((tool.function as Json).parameters as Json | undefined) }));
    }
    if (tools.length) await runScripted(s, tools, members);
    if (turn.handoff) await handoff(s, members, turn.handoff);
    if (turn.hang) {
      void s.send('hang', {});
      if (!(await s.wait(5))) return;
    }
    if (turn.endCall) return assistantEnds(s);
    // The customer's last words get no stand-in reply: the call ends after them.
    if (!tools.length && !turn.handoff && !last && turn.say !== undefined && !(await reply())) return;
  }
  if (!(await turns.end())) return;
  if (hasEndCallTool(s)) return assistantEnds(s);
  s.finish('customer-ended-call');
}
