// `voice test`'s own block in an eval or simulation file (`x-voice`): what the platform's format
// cannot say. The target a test runs against, where an imported test came from, the turn latencies
// the call had, and latency budgets. The platform never sees it (gitops keeps it out of the data).
import type { LocalResource, Problem } from '../gitops/index.js';
import type { Json } from '../messages/index.js';
import { isObject } from '../json.js';
import { TRANSPORTS } from './voice-mode.js';

/** Budgets of a turn in milliseconds: the model's time to first token, and the whole turn (needs an audio loop). */
export interface Budget {
  firstTokenMs?: number;
  turnMs?: number;
}

/** Latencies a call recorded for one turn (the platform's `TurnLatency`, renamed to say their unit). */
export interface RecordedLatency {
  firstTokenMs?: number;
  voiceMs?: number;
  transcriberMs?: number;
  endpointingMs?: number;
  turnMs?: number;
}

/** One assistant turn's entry: its number among the eval's assistant messages, what was recorded, its budget. */
export interface TurnEntry {
  turn: number;
  recorded?: RecordedLatency;
  budget?: Budget;
}

/** The `x-voice` block. */
export interface TestExtension {
  /** The assistant or squad the test runs against, as `--target` names one. */
  target?: string;
  /** Where an imported test came from. */
  source?: Record<string, string>;
  /** A budget for every judged turn (a turn's own budget wins). */
  budget?: Budget;
  turns?: TurnEntry[];
  /** A simulation's transport: `vapi.webchat` (chat, the default) or `vapi.websocket` (voice mode, on the local audio loop). */
  transport?: string;
}

const KEYS = ['target', 'source', 'budget', 'turns', 'transport'];
const BUDGET_KEYS = ['firstTokenMs', 'turnMs'];
const RECORDED_KEYS = ['firstTokenMs', 'voiceMs', 'transcriberMs', 'endpointingMs', 'turnMs'];

/** The block of a resource, when it has a well-formed one (lint reports the rest). */
export function extensionOf(r: LocalResource): TestExtension {
  return isObject(r.extension) ? (r.extension as TestExtension) : {};
}

/** How many assistant messages an eval has: its turns. */
export function assistantTurns(evalData: Json): number {
  return (Array.isArray(evalData.messages) ? (evalData.messages as Json[]) : []).filter((m) => m.role === 'assistant').length;
}

/** The 1-based message index of each assistant turn (turn N is the Nth assistant message). */
export function turnOfMessage(evalData: Json): Map<number, number> {
  const out = new Map<number, number>();
  let turn = 0;
  (Array.isArray(evalData.messages) ? (evalData.messages as Json[]) : []).forEach((m, i) => {
    if (m.role === 'assistant') out.set(i + 1, ++turn);
  });
  return out;
}

/** The budget a turn is held to: its own, else the test's. */
export function budgetOf(ext: TestExtension, turn: number): Budget {
  const own = ext.turns?.find((t) => t.turn === turn)?.budget ?? {};
  return { ...ext.budget, ...own };
}

function numbers(value: unknown, keys: readonly string[], where: string, out: string[]): void {
  if (!isObject(value)) return void out.push(`${where} must be a mapping of ${keys.join(', ')}`);
  for (const [k, v] of Object.entries(value)) {
    if (!keys.includes(k)) out.push(`${where}.${k} is not known (one of: ${keys.join(', ')})`);
    else if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) out.push(`${where}.${k} must be a positive number of milliseconds`);
  }
}

/** The problems of a resource's `x-voice` block, with file:line; `targets` are the folder's assistant and squad ids. */
export function lintExtension(r: LocalResource, targets: ReadonlySet<string>): Problem[] {
  if (r.extension === undefined) return [];
  const messages: [(string | number)[], string][] = [];
  const at = (path: (string | number)[], message: string): void => void messages.push([['x-voice', ...path], message]);
  const ext = r.extension;
  if (!isObject(ext)) at([], `x-voice must be a mapping (${KEYS.join(', ')})`);
  else {
    for (const k of Object.keys(ext)) if (!KEYS.includes(k)) at([k], `x-voice.${k} is not known to voice test (one of: ${KEYS.join(', ')})`);
    if (ext.target !== undefined && (typeof ext.target !== 'string' || !targets.has(ext.target.replace(/^(assistants|squads)\//, ''))))
      at(['target'], `x-voice.target ${JSON.stringify(ext.target)} names no assistant or squad file of this folder`);
    if (ext.source !== undefined && (!isObject(ext.source) || Object.values(ext.source).some((v) => typeof v !== 'string'))) at(['source'], 'x-voice.source must be a mapping of texts');
    const problems: string[] = [];
    if (ext.budget !== undefined) numbers(ext.budget, BUDGET_KEYS, 'x-voice.budget', problems);
    for (const p of problems.splice(0)) at(['budget'], p);
    const isEval = r.kind.name === 'evals';
    if (ext.transport !== undefined && isEval) at(['transport'], 'x-voice.transport is read on simulations only (an eval replays fixed turns, with no call)');
    else if (ext.transport !== undefined && !(TRANSPORTS as readonly unknown[]).includes(ext.transport))
      at(['transport'], `x-voice.transport must be ${TRANSPORTS.join(' (chat, the default) or ')} (voice mode: the tester and the target speak on the audio loop)`);
    if (!isEval && (ext.budget !== undefined || ext.turns !== undefined))
      at([ext.budget !== undefined ? 'budget' : 'turns'], 'latency budgets and turns are read on evals only (a simulation has no fixed turns)');
    if (ext.turns !== undefined && isEval) {
      const count = assistantTurns(r.data);
      if (!Array.isArray(ext.turns)) at(['turns'], 'x-voice.turns must be a list of { turn, recorded, budget }');
      else
        ext.turns.forEach((t: unknown, i) => {
          const where = `x-voice.turns[${i}]`;
          if (!isObject(t)) return at(['turns', i], `${where} must be a mapping`);
          for (const k of Object.keys(t)) if (!['turn', 'recorded', 'budget'].includes(k)) at(['turns', i, k], `${where}.${k} is not known (one of: turn, recorded, budget)`);
          if (!Number.isInteger(t.turn) || (t.turn as number) < 1 || (t.turn as number) > count) at(['turns', i, 'turn'], `${where}.turn must be the number of an assistant message, 1 to ${count}`);
          if (t.recorded !== undefined) numbers(t.recorded, RECORDED_KEYS, `${where}.recorded`, problems);
          if (t.budget !== undefined) numbers(t.budget, BUDGET_KEYS, `${where}.budget`, problems);
          for (const p of problems.splice(0)) at(['turns', i], p);
        });
    }
  }
  return messages.map(([path, message]) => {
    const where = r.locate(path) ?? r.locate(path.slice(0, -1)) ?? r.locate(['x-voice']) ?? { line: 1, col: 1 };
    return { file: r.file, line: where.line, col: where.col, message };
  });
}
