// Transfers and handoffs the assistant makes with its tools, as the platform makes them: a
// `transferCall` tool moves the call to one of its destinations, or asks the server for one
// (`transfer-destination-request`) when it has none; a `handoff` tool hands the call to another
// assistant, asking the server (`handoff-destination-request`) when its destination is dynamic.
// Scripted turns and the model step both call these.
import type { Json } from '../../messages/index.js';
import { destinationOf } from '../../messages/answers.js';
import { delegate, delegatesControl } from './control.js';
import { greet } from './greeting.js';
import { assistantFrom } from './resolve.js';
import type { CallSession } from './session.js';
import { isObject } from '../../json.js';

/** What a transfer or handoff tool call came to: the result to record for the tool call, and whether the call moved. */
export interface MoveOutcome {
  /** True when the call was forwarded (and has ended) or another assistant took it over. */
  moved: boolean;
  /** The tool call's result, as recorded in the conversation. */
  result: string;
  /** Why nothing moved (no destination, the server refused, an unknown assistant). */
  error?: string;
}

/**
 * How the tool was called: its call id (the caller records the `tool_calls` message; the result is
 * recorded under that id before the call moves) and the squad.
 */
export interface MoveOptions {
  /** The tool call's id: when given, `tool_call_result` is added to the conversation before the call moves. */
  toolCallId?: string;
  /** The squad's members, for destinations that name an assistant. */
  members?: Json[];
}

function destinationsOf(tool: Json): Json[] {
  return Array.isArray(tool.destinations) ? tool.destinations.filter(isObject) : [];
}

/** The destination a tool call asks for: the one its `destination` argument names, else the first. */
function pick(destinations: Json[], args: Json): Json | undefined {
  const wanted = typeof args.destination === 'string' ? args.destination : undefined;
  if (wanted !== undefined) {
    const named = destinations.find((d) => [d.number, d.sipUri, d.assistantName, d.assistantId].includes(wanted) || (wanted === 'dynamic' && d.type === 'dynamic'));
    if (named) return named;
  }
  return destinations[0];
}

function toolName(tool: Json): string {
  const fn = tool.function as Json | undefined;
  return typeof fn?.name === 'string' ? fn.name : String(tool.type);
}

/** Records the tool call's result in the conversation (when its id is known). */
function record(s: CallSession, tool: Json, opts: MoveOptions, result: string): void {
  if (opts.toolCallId) s.push({ role: 'tool_call_result', toolCallId: opts.toolCallId, name: toolName(tool), result, ...s.stamp() });
}

function failed(s: CallSession, tool: Json, opts: MoveOptions, what: string, error: string): MoveOutcome {
  s.log(`${what} failed: ${error}`, 'WARN');
  const result = `${what} failed: ${error}`;
  record(s, tool, opts, result);
  return { moved: false, result, error };
}

const ENDED: MoveOutcome = { moved: false, result: 'The call ended first.', error: 'the call ended' };

/** Asks the server for a destination with `type` and reads its answer. */
async function ask(s: CallSession, type: 'transfer-destination-request' | 'handoff-destination-request', data: Json, tool: Json): Promise<ReturnType<typeof destinationOf>> {
  const pending = type === 'handoff-destination-request' ? s.send(type, { parameters: data }, { tool }) : s.send(type, {}, { tool });
  const delivered = await s.deps.clock.hold(pending);
  if (!delivered) return { error: `${type} was not sent (not in serverMessages, or no server is set)` };
  if (delivered.delivery.error) return { error: `${type}: ${delivered.delivery.error}` };
  return destinationOf(delivered.answer);
}

/** Hands the call to `next`: `transfer-update`, then the new assistant starts and greets. */
export async function moveToAssistant(s: CallSession, next: Json, destination: Json): Promise<void> {
  const from = s.assistant;
  void s.send('transfer-update', { destination, toAssistant: next, ...(from ? { fromAssistant: from } : {}) });
  s.assistant = next;
  await s.filled();
  s.log(`Handoff to ${String(next.name ?? destination.assistantName ?? 'assistant')}`);
  void s.send('assistant.started', { newAssistant: s.assistant ?? next });
  await greet(s);
}

/** The assistant a destination of type `assistant` names: a squad member by name, a stored assistant by id, or an inline one. */
function assistantOf(s: CallSession, members: Json[] | undefined, destination: Json): Json | undefined {
  if (typeof destination.assistantName === 'string') return members?.find((m) => m.name === destination.assistantName) ?? undefined;
  return assistantFrom(s.deps.store, destination);
}

/** Forwards the call to a number or SIP address: the destination's message, `transfer-update`, `forwarding`, then the call ends forwarded. */
async function forward(s: CallSession, tool: Json, opts: MoveOptions, destination: Json): Promise<MoveOutcome> {
  const where = String(destination.number ?? destination.sipUri ?? '?');
  const result = `Transferred to ${where}.`;
  record(s, tool, opts, result);
  if (typeof destination.message === 'string' && destination.message.trim() && !(await s.speak('assistant', destination.message))) return ENDED;
  // A server that took phone-call-control forwards the call itself; otherwise the platform does.
  if (delegatesControl(s)) await delegate(s, 'forward', destination);
  else void s.send('transfer-update', { destination });
  s.call.destination = destination;
  s.log(`Transfer to ${where}`);
  s.setStatus('forwarding');
  s.finish('assistant-forwarded-call');
  return { moved: true, result };
}

/**
 * Runs a `transferCall` tool with the model's arguments: the destination its `destination`
 * argument names (else its first), or, with no destinations, the one the server answers to
 * `transfer-destination-request`. A number or SIP destination forwards the call, which ends
 * `assistant-forwarded-call`; an assistant destination hands the call over (`opts.members`: the squad).
 */
export async function transferCall(s: CallSession, tool: Json, args: Json = {}, opts: MoveOptions = {}): Promise<MoveOutcome> {
  let destination = pick(destinationsOf(tool), args);
  if (!destination) {
    const answer = await ask(s, 'transfer-destination-request', {}, tool);
    if (s.ended) return ENDED;
    if (answer.error || !answer.destination) return failed(s, tool, opts, 'Transfer', answer.error ?? 'no destination');
    if (typeof answer.message?.content === 'string' && answer.message.content.trim() && !(await s.speak('assistant', answer.message.content))) return ENDED;
    destination = answer.destination;
  }
  if (s.ended) return ENDED;
  if (destination.type === 'number' || destination.type === 'sip') return forward(s, tool, opts, destination);
  if (destination.type !== 'assistant') return failed(s, tool, opts, 'Transfer', `unknown destination type ${JSON.stringify(destination.type)}`);
  const next = assistantOf(s, opts.members, destination);
  if (!next) return failed(s, tool, opts, 'Transfer', `no assistant for ${JSON.stringify(destination)}`);
  const result = `Transferred to ${String(next.name ?? 'the assistant')}.`;
  record(s, tool, opts, result);
  await moveToAssistant(s, next, destination);
  return { moved: true, result };
}

/**
 * Runs a `handoff` tool with the model's arguments: the assistant destination its `destination`
 * argument names (else its first); a `dynamic` destination sends `handoff-destination-request`
 * (the arguments as `parameters`) to its server and hands the call to the assistant the answer names.
 */
export async function handoffTo(s: CallSession, members: Json[] | undefined, tool: Json, args: Json = {}, opts: Omit<MoveOptions, 'members'> = {}): Promise<MoveOutcome> {
  const o: MoveOptions = { ...opts, ...(members ? { members } : {}) };
  let destination = pick(destinationsOf(tool), args);
  if (!destination) return failed(s, tool, o, 'Handoff', 'the handoff tool has no destinations');
  let result: string | undefined;
  if (destination.type === 'dynamic') {
    // The dynamic destination's server comes first, then the tool's, the assistant's and so on.
    const via = isObject(destination.server) ? { ...tool, server: destination.server } : tool;
    const answer = await ask(s, 'handoff-destination-request', args, via);
    if (s.ended) return ENDED;
    if (answer.error || !answer.destination) return failed(s, tool, o, 'Handoff', answer.error ?? 'no destination');
    destination = answer.destination;
    result = answer.result;
  }
  if (destination.type !== 'assistant') return failed(s, tool, o, 'Handoff', `a handoff goes to an assistant, not ${JSON.stringify(destination.type)}`);
  const next = assistantOf(s, members, destination);
  if (!next) return failed(s, tool, o, 'Handoff', `no assistant for ${JSON.stringify(destination)}`);
  const said = result ?? `Handed off to ${String(next.name ?? 'the assistant')}.`;
  record(s, tool, o, said);
  await moveToAssistant(s, next, destination);
  return { moved: true, result: said };
}
