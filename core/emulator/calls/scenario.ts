// Scenarios: what the simulated customer says turn by turn, and what happens after each turn
// (tool calls, a squad handoff, a hang-up). Written as YAML or JSON; checked with messages that
// name the file, the turn and the field.
import { readFile } from 'node:fs/promises';
import type { Json } from '../../messages/index.js';
import { ScenarioError } from '../errors.js';

export { ScenarioError };

/**
 * A tool the assistant calls after a turn: by function name (a `transferCall` or `handoff` tool
 * without one by its type), with these arguments (else made from its schema).
 */
export interface ScenarioTool {
  name: string;
  arguments?: Json;
}

/** One customer turn and what follows it. */
export interface ScenarioTurn {
  /** What the customer says (omit for a turn of silence). */
  say?: string;
  /** Simulated seconds of silence before the customer speaks. */
  pauseSeconds?: number;
  /** The customer cuts the assistant off (`user-interrupted`). */
  interrupt?: boolean;
  /** Tools the assistant calls after this turn, in order; a transferCall or handoff tool moves the call. */
  tools?: ScenarioTool[];
  /** Squads: hand the call to the member with this assistant name after this turn. */
  handoff?: string;
  /** The assistant goes quiet after this turn (`hang`), then carries on. */
  hang?: boolean;
  /** The assistant ends the call after this turn (its `endCall` tool). */
  endCall?: boolean;
  /** The customer hangs up after this turn. */
  hangup?: boolean;
  /** The language the customer says this line in (e.g. `es`): a multilingual transcriber switches to it. */
  language?: string;
}

/** A scenario: the customer's turns. */
export interface Scenario {
  name?: string;
  turns: ScenarioTurn[];
}

/**
 * The built-in conversation when no scenario is given: a greeting, the tools, thanks, goodbye.
 * The customer then hangs up, unless the assistant has an `endCall` tool and ends the call itself.
 */
export const DEFAULT_SCENARIO: Scenario = {
  name: 'default',
  turns: [{ say: "Hi, I'm calling to check on my appointment." }, { say: "Great, thank you. That's all I needed.", interrupt: true }, { say: 'Bye!' }],
};

const KEYS = new Set(['say', 'pauseSeconds', 'interrupt', 'tools', 'handoff', 'hang', 'endCall', 'hangup', 'language']);
const FLAGS = ['interrupt', 'hang', 'endCall', 'hangup'] as const;

function turnOf(raw: unknown, where: string): ScenarioTurn {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ScenarioError(`${where} must be an object like { say: "Hello" }`);
  const t = raw as Record<string, unknown>;
  for (const key of Object.keys(t)) if (!KEYS.has(key)) throw new ScenarioError(`${where} has an unknown field "${key}" (known: ${[...KEYS].join(', ')})`);
  const turn: ScenarioTurn = {};
  if (t.say !== undefined) {
    if (typeof t.say !== 'string') throw new ScenarioError(`${where}.say must be text`);
    turn.say = t.say;
  }
  if (t.pauseSeconds !== undefined) {
    if (typeof t.pauseSeconds !== 'number' || !(t.pauseSeconds >= 0)) throw new ScenarioError(`${where}.pauseSeconds must be a number of seconds, 0 or more`);
    turn.pauseSeconds = t.pauseSeconds;
  }
  for (const flag of FLAGS) {
    if (t[flag] === undefined) continue;
    if (typeof t[flag] !== 'boolean') throw new ScenarioError(`${where}.${flag} must be true or false`);
    turn[flag] = t[flag];
  }
  if (t.language !== undefined) {
    if (typeof t.language !== 'string' || !t.language) throw new ScenarioError(`${where}.language must be a language code, e.g. es`);
    turn.language = t.language;
  }
  if (t.handoff !== undefined) {
    if (typeof t.handoff !== 'string' || !t.handoff) throw new ScenarioError(`${where}.handoff must be the name of a squad member's assistant`);
    turn.handoff = t.handoff;
  }
  if (t.tools !== undefined) {
    if (!Array.isArray(t.tools)) throw new ScenarioError(`${where}.tools must be a list like [{ name: bookAppointment, arguments: { day: monday } }]`);
    turn.tools = t.tools.map((tool, j) => {
      const w = `${where}.tools[${j}]`;
      if (typeof tool === 'string') return { name: tool };
      if (!tool || typeof tool !== 'object' || typeof (tool as Json).name !== 'string') throw new ScenarioError(`${w} needs a name (the tool's function name)`);
      const args = (tool as Json).arguments;
      if (args !== undefined && (!args || typeof args !== 'object' || Array.isArray(args))) throw new ScenarioError(`${w}.arguments must be an object`);
      return { name: (tool as Json).name as string, ...(args ? { arguments: args as Json } : {}) };
    });
  }
  return turn;
}

/** Checks parsed scenario data; `source` names it in messages. */
export function toScenario(data: unknown, source = 'scenario'): Scenario {
  const doc = Array.isArray(data) ? { turns: data } : data;
  if (!doc || typeof doc !== 'object') throw new ScenarioError(`${source}: expected an object with "turns" (a list of customer turns)`);
  const { name, turns } = doc as Record<string, unknown>;
  if (!Array.isArray(turns) || turns.length === 0) throw new ScenarioError(`${source}: "turns" must be a non-empty list of customer turns`);
  if (name !== undefined && typeof name !== 'string') throw new ScenarioError(`${source}: "name" must be text`);
  return { ...(name ? { name } : {}), turns: turns.map((t, i) => turnOf(t, `${source}: turns[${i}]`)) };
}

/** Parses scenario text (YAML, which includes JSON); the YAML parser loads only when needed. */
export async function parseScenario(text: string, source = 'scenario'): Promise<Scenario> {
  const loaded = await import('yaml');
  // Bundled (the built CLI), the CommonJS build of `yaml` arrives as a default export only.
  const { parse } = typeof loaded.parse === 'function' ? loaded : (loaded as unknown as { default: typeof loaded }).default;
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new ScenarioError(`${source} is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  return toScenario(data, source);
}

/** Reads and checks a scenario file. */
export async function loadScenario(file: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ScenarioError(`Cannot read scenario file ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  return parseScenario(text, file);
}
