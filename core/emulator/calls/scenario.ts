// Scenarios: what the simulated customer says turn by turn, and what happens after each turn
// (tool calls, a squad handoff, a hang-up). Written as YAML or JSON; checked with messages that
// name the file, the turn and the field.
import { readFile } from 'node:fs/promises';
import type { Json } from '../../messages/index.js';
import { ScenarioError } from '../errors.js';
import { KEYS } from './audio/keypad.js';
import type { NoiseOptions } from './audio/port.js';
import type { Fragments } from './audio/utterance.js';
import { lineProblem } from './audio/utterance.js';

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
  /** What the customer says (omit for a turn of silence); `[0.8s]` in the text, or a number in a list, is a pause mid-sentence. */
  say?: string | Fragments;
  /** Simulated seconds of silence before the customer speaks. */
  pauseSeconds?: number;
  /**
   * The customer talks over the assistant's line before this turn: `true` (a second into it),
   * `{ afterSeconds }` or `{ afterWords }`. With sound the assistant's stopSpeakingPlan decides
   * whether it stops; on the text timeline `user-interrupted` is sent.
   */
  interrupt?: boolean | { afterSeconds: number } | { afterWords: number };
  /** Keys the customer presses after their line (0-9, *, #, A-D). */
  dtmf?: string;
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

/** A scenario: the customer's turns, and the noise around them. */
export interface Scenario {
  name?: string;
  turns: ScenarioTurn[];
  /** Background noise in the customer's audio at this signal-to-noise ratio (with sound; seeded, so a run repeats). */
  noise?: NoiseOptions;
}

/**
 * The built-in conversation when no scenario is given: a greeting, the tools, thanks, goodbye.
 * The customer then hangs up, unless the assistant has an `endCall` tool and ends the call itself.
 */
export const DEFAULT_SCENARIO: Scenario = {
  name: 'default',
  turns: [{ say: "Hi, I'm calling to check on my appointment." }, { say: "Great, thank you. That's all I needed.", interrupt: true }, { say: 'Bye!' }],
};

const FIELDS = new Set(['say', 'pauseSeconds', 'interrupt', 'dtmf', 'tools', 'handoff', 'hang', 'endCall', 'hangup', 'language']);
const FLAGS = ['hang', 'endCall', 'hangup'] as const;

/** A turn's `interrupt`, checked. */
function interruptOf(v: unknown, where: string): ScenarioTurn['interrupt'] {
  if (typeof v === 'boolean') return v;
  const o = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const keys = o ? Object.keys(o) : [];
  const n = o?.[keys[0] as string];
  if (keys.length === 1 && keys[0] === 'afterSeconds' && typeof n === 'number' && n >= 0) return { afterSeconds: n };
  if (keys.length === 1 && keys[0] === 'afterWords' && typeof n === 'number' && Number.isInteger(n) && n >= 1) return { afterWords: n };
  throw new ScenarioError(`${where}.interrupt must be true, { afterSeconds: 1.5 } (seconds into the assistant's line, 0 or more) or { afterWords: 3 } (after that many of its words, 1 or more)`);
}

/** A scenario's `noise`, checked. */
function noiseOf(v: unknown, source: string): NoiseOptions {
  const o = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const hint = 'like { snrDb: 5, seed: 1 } (color: white or pink)';
  if (!o) throw new ScenarioError(`${source}: noise must be an object ${hint}`);
  for (const key of Object.keys(o)) if (!['snrDb', 'seed', 'color'].includes(key)) throw new ScenarioError(`${source}: noise has an unknown field "${key}" (known: snrDb, seed, color)`);
  if (typeof o.snrDb !== 'number' || !Number.isFinite(o.snrDb) || o.snrDb < -10 || o.snrDb > 60) throw new ScenarioError(`${source}: noise.snrDb must be a number of decibels from -10 to 60, ${hint}`);
  if (o.seed !== undefined && (typeof o.seed !== 'number' || !Number.isInteger(o.seed))) throw new ScenarioError(`${source}: noise.seed must be a whole number (the same seed gives the same noise)`);
  if (o.color !== undefined && o.color !== 'white' && o.color !== 'pink') throw new ScenarioError(`${source}: noise.color must be white or pink`);
  return { snrDb: o.snrDb, seed: typeof o.seed === 'number' ? o.seed : 1, ...(o.color ? { color: o.color } : {}) };
}

function turnOf(raw: unknown, where: string): ScenarioTurn {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ScenarioError(`${where} must be an object like { say: "Hello" }`);
  const t = raw as Record<string, unknown>;
  for (const key of Object.keys(t)) if (!FIELDS.has(key)) throw new ScenarioError(`${where} has an unknown field "${key}" (known: ${[...FIELDS].join(', ')})`);
  const turn: ScenarioTurn = {};
  if (t.say !== undefined) {
    if (typeof t.say !== 'string' && !Array.isArray(t.say))
      throw new ScenarioError(`${where}.say must be text ("[0.8s]" pauses mid-sentence), or a list of text and pauses in seconds like ["I'd like to book", 0.8, "a table"]`);
    const problem = lineProblem(t.say);
    if (problem) throw new ScenarioError(`${where}.say cannot be said: ${problem}`);
    turn.say = t.say as string | Fragments;
  }
  if (t.interrupt !== undefined) turn.interrupt = interruptOf(t.interrupt, where);
  if (t.interrupt && t.interrupt !== false && t.say === undefined) throw new ScenarioError(`${where}.interrupt needs a say: the words the customer talks over the assistant with`);
  if (t.dtmf !== undefined) {
    if (typeof t.dtmf !== 'string' || !KEYS.test(t.dtmf)) throw new ScenarioError(`${where}.dtmf must be keypad keys: digits, *, # or A-D, like "1234#"`);
    turn.dtmf = t.dtmf;
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
  const { name, turns, noise, ...rest } = doc as Record<string, unknown>;
  for (const key of Object.keys(rest)) throw new ScenarioError(`${source}: unknown field "${key}" (known: name, turns, noise)`);
  if (!Array.isArray(turns) || turns.length === 0) throw new ScenarioError(`${source}: "turns" must be a non-empty list of customer turns`);
  if (name !== undefined && typeof name !== 'string') throw new ScenarioError(`${source}: "name" must be text`);
  return { ...(name ? { name } : {}), turns: turns.map((t, i) => turnOf(t, `${source}: turns[${i}]`)), ...(noise !== undefined ? { noise: noiseOf(noise, source) } : {}) };
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
