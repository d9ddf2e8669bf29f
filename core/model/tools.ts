// The assistant's tools as the model sees them: function tools (and any tool carrying a function
// definition) as OpenAI functions, plus the endCall / transferCall / handoff / dtmf built-ins as
// functions the way the platform constructs them when the tool gives no `function` of its own.
import type { Json } from '../messages/index.js';
import { isObject } from '../json.js';

/** What calling a model-visible function means. */
export type ToolKind = 'function' | 'endCall' | 'transferCall' | 'handoff' | 'dtmf';

/** Whether calling a function of this kind is an action that ends the model's turn (the host carries it out). */
export function isAction(kind: ToolKind | undefined): boolean {
  return kind === 'endCall' || kind === 'transferCall' || kind === 'handoff';
}

/** The built-in tool types the model is offered as functions. */
const BUILT_IN = new Set<string>(['endCall', 'transferCall', 'handoff', 'dtmf']);

/** A function offered to the model and the tool record behind it. */
export interface ModelFunction {
  name: string;
  kind: ToolKind;
  tool: Json;
  /** The OpenAI `tools` entry. */
  definition: Json;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** OpenAI function names allow letters, digits, `_` and `-`, at most 64. */
function safeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

interface Destination {
  value: string;
  description?: string;
}

function transferDestinations(tool: Json): Destination[] {
  const list = Array.isArray(tool.destinations) ? tool.destinations.filter(isObject) : [];
  return list.flatMap((d) => {
    const value = str(d.number) ?? str(d.sipUri) ?? str(d.assistantName);
    return value ? [{ value, description: str(d.description) }] : [];
  });
}

function handoffDestinations(tool: Json, members: Json[] | undefined): Destination[] {
  const list = Array.isArray(tool.destinations) ? tool.destinations.filter(isObject) : [];
  if (!list.length) return (members ?? []).flatMap((m) => (str(m.name) ? [{ value: str(m.name)! }] : []));
  return list.flatMap((d) => {
    if (d.type === 'dynamic') return [{ value: 'dynamic', description: str(d.description) }];
    const byId = str(d.assistantId) ? members?.find((m) => m.id === d.assistantId) : undefined;
    const value = str(d.assistantName) ?? str(byId?.name) ?? str(d.assistantId);
    return value ? [{ value, description: str(d.description) }] : [];
  });
}

function destinationParameter(what: string, destinations: Destination[]): Json {
  const options = destinations.map((d) => (d.description ? `${d.value} (${d.description})` : d.value)).join(', ');
  return {
    type: 'object',
    properties: {
      destination: { type: 'string', description: `The ${what} to go to. Options: ${options}`, enum: destinations.map((d) => d.value) },
    },
    required: ['destination'],
  };
}

function whenList(destinations: Destination[]): string {
  return destinations.map((d, i) => `${i + 1}. ${d.value}${d.description ? `. When: ${d.description}` : ''}`).join('\n');
}

/** The function the platform builds for a built-in tool without its own `function`. */
function builtIn(tool: Json, kind: Exclude<ToolKind, 'function'>, members: Json[] | undefined): { name: string; description: string; parameters: Json } {
  if (kind === 'endCall') {
    return { name: 'endCall', description: 'Ends the call. Call it when the conversation is over or the instructions say to hang up.', parameters: { type: 'object', properties: {} } };
  }
  if (kind === 'dtmf') {
    const dtmf = { type: 'string', description: 'The keys to press, in order: digits 0-9, * and #' };
    return {
      name: 'dtmf',
      description: 'Presses keys on the phone keypad (DTMF), e.g. to choose an option in a phone menu.',
      parameters: { type: 'object', properties: { dtmf }, required: ['dtmf'] },
    };
  }
  if (kind === 'transferCall') {
    const destinations = transferDestinations(tool);
    const description =
      'Transfers the call. Call it only when the instructions say to use the transferCall function.' + (destinations.length ? `\nDestinations you can transfer to:\n${whenList(destinations)}` : '');
    return { name: 'transferCall', description, parameters: destinations.length ? destinationParameter('destination', destinations) : { type: 'object', properties: {} } };
  }
  const destinations = handoffDestinations(tool, members);
  const first = destinations[0]?.value ?? 'assistant';
  const description =
    'Hands the conversation to another assistant. Call it only when the instructions say to hand off.' + (destinations.length ? `\nAssistants you can hand off to:\n${whenList(destinations)}` : '');
  return { name: `handoff_to_${first}`, description, parameters: destinationParameter('assistant', destinations) };
}

/** Every function the model is offered, with the tool behind each (first tool wins a name). */
export function modelFunctions(tools: Json[], members?: Json[]): ModelFunction[] {
  const out: ModelFunction[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!isObject(tool)) continue;
    const kind: ToolKind = typeof tool.type === 'string' && BUILT_IN.has(tool.type) ? (tool.type as ToolKind) : 'function';
    const own = isObject(tool.function) ? tool.function : undefined;
    let fn: Json;
    if (kind === 'function') {
      const name = str(own?.name) ?? str(tool.name);
      if (!name) continue; // a tool the model cannot call by name (e.g. a knowledge-base query without one)
      fn = { name, ...(own?.description !== undefined ? { description: own.description } : {}), parameters: own?.parameters ?? { type: 'object', properties: {} } };
      if (own?.strict !== undefined) fn.strict = own.strict;
    } else {
      const made = builtIn(tool, kind, members);
      // The reference lets a tool override parts of the constructed function (e.g. only its name).
      fn = { ...made, ...(own ?? {}) };
    }
    const name = safeName(String(fn.name));
    if (seen.has(name)) continue;
    seen.add(name);
    out.push({ name, kind, tool, definition: { type: 'function', function: { ...fn, name } } });
  }
  return out;
}

/** The assistant's tools as the OpenAI `tools` array the platform sends: function tools and the endCall / transferCall / handoff / dtmf built-ins. */
export function toolsForModel(tools: Json[], members?: Json[]): Json[] {
  return modelFunctions(tools, members).map((f) => f.definition);
}

/** The assistant a handoff's `destination` argument names (a destination's assistantName, or a member found by id or name). */
export function handoffTarget(tool: Json, args: Json, members?: Json[]): string | undefined {
  const wanted = str(args.destination);
  if (!wanted || wanted === 'dynamic') return undefined;
  const byMember = members?.find((m) => m.name === wanted || m.id === wanted);
  if (byMember && str(byMember.name)) return str(byMember.name);
  const list = Array.isArray(tool.destinations) ? tool.destinations.filter(isObject) : [];
  const dest = list.find((d) => d.assistantName === wanted || d.assistantId === wanted);
  return str(dest?.assistantName) ?? (dest ? undefined : wanted);
}
