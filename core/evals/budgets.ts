// Latency budgets of an eval's turns, judged on the timings its run measured. What is judged: the
// model's time to first token of each judged turn, on a live model. What is not: the whole turn
// (it needs an audio loop, which chat evals do not have), timings replayed from a cassette (they are
// the recording's; `--budgets on` judges them anyway), and runs on a platform that does not report
// per-turn timings. A budget that was not judged says so; it never passes silently.
import type { Json } from '../messages/index.js';
import type { TestExtension } from './extension.js';
import { budgetOf, turnOfMessage } from './extension.js';

/** The measured time to first token of one judged assistant turn of an eval run. */
export interface TurnTiming {
  /** 1-based index of the assistant message in the eval. */
  message: number;
  firstTokenMs: number;
  /** The answer came from a cassette: the timing is the recording's. */
  replayed: boolean;
}

/** When budgets are judged: `auto` on live models only (not on cassette replays), `on` always, `off` never. */
export type BudgetMode = 'auto' | 'on' | 'off';

/** One turn's measured time and budget. */
export interface TurnLatencyResult {
  turn: number;
  firstTokenMs: number;
  replayed: boolean;
  budgetMs?: number;
  passed?: boolean;
}

/** The latencies of an eval run and the verdict on its budgets. */
export interface LatencyReport {
  /** True when at least one budget was compared with a measured time. */
  judged: boolean;
  /** Why a stated budget was not judged (or what was left out). */
  notes: string[];
  turns: TurnLatencyResult[];
  /** One line per budget exceeded, naming the turn and the figures. */
  failures: string[];
}

function stated(ext: TestExtension): { firstToken: boolean; turn: boolean } {
  const all = [ext.budget, ...(ext.turns ?? []).map((t) => t.budget)];
  return { firstToken: all.some((b) => b?.firstTokenMs !== undefined), turn: all.some((b) => b?.turnMs !== undefined) };
}

/** Judges an eval's budgets; undefined when it has neither budgets nor timings. */
export function judgeLatency(evalData: Json, ext: TestExtension, timings: readonly TurnTiming[] | undefined, mode: BudgetMode): LatencyReport | undefined {
  const has = stated(ext);
  if (!timings && !has.firstToken && !has.turn) return undefined;
  const notes: string[] = [];
  if (has.turn) notes.push('turnMs budgets are not judged: a chat eval has no audio loop, so the whole turn is not measured');
  const turnOf = turnOfMessage(evalData);
  const turns: TurnLatencyResult[] = (timings ?? []).map((t) => ({ turn: turnOf.get(t.message) ?? 0, firstTokenMs: Math.round(t.firstTokenMs), replayed: t.replayed }));
  const report = (judged: boolean, failures: string[] = []): LatencyReport => ({ judged, notes, turns, failures });
  if (!has.firstToken) return report(false);
  if (mode === 'off') return (notes.push('latency budgets are not judged (--budgets off)'), report(false));
  if (!timings) return (notes.push('latency budgets are not judged: the platform that ran this eval reports no per-turn timings (the local platform voice test starts does)'), report(false));
  if (mode === 'auto' && turns.some((t) => t.replayed))
    return (notes.push("latency budgets are not judged on a cassette replay: its timings are the recording's (--budgets on judges them anyway)"), report(false));
  const failures: string[] = [];
  let judged = false;
  for (const t of turns) {
    const budget = budgetOf(ext, t.turn).firstTokenMs;
    if (budget === undefined) continue;
    judged = true;
    t.budgetMs = budget;
    t.passed = t.firstTokenMs <= budget;
    if (!t.passed) failures.push(`turn ${t.turn}: the model's first token came after ${t.firstTokenMs} ms${t.replayed ? ' (replayed from the cassette)' : ''}, over its budget of ${budget} ms`);
  }
  if (!judged) notes.push('no judged turn has a firstTokenMs budget');
  return report(judged, failures);
}
