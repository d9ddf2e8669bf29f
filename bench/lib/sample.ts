// Interleaved sampling: warm-up rounds, then rounds in which every task runs once, back to back
// (A B, B A, A B, ...), so machine noise lands on ours and the reference alike.
import { median } from './stats.js';

/** One measured task: returns the figure for one run (ms, req/s, ...). */
export type Task = () => Promise<number>;

/** Options for interleaved sampling. */
export interface SampleOptions {
  warmup: number;
  rounds: number;
  /**
   * Runs of each task in a round (alternating, A B A B ...); the round's sample is their median.
   * For tasks a single run of which swings more than the budget judges (a launch of a few hundred
   * ms on two shared cores: +-10%, against a budget of 5%). Default 1.
   */
  perRound?: number;
  /** Called after each round (progress). */
  onRound?: (round: number) => void;
}

/** Runs the tasks in interleaved rounds after warm-up and returns each task's samples by name. */
export async function interleave(tasks: Record<string, Task>, options: SampleOptions): Promise<Record<string, number[]>> {
  const names = Object.keys(tasks);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const per = options.perRound ?? 1;
  for (let round = 0; round < options.warmup + options.rounds; round++) {
    const runs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (let j = 0; j < per; j++) {
      // The starting task rotates each time (A B, B A, ...) so no task always follows the same one.
      for (let k = 0; k < names.length; k++) {
        const name = names[(round * per + j + k) % names.length] as string;
        (runs[name] as number[]).push(await (tasks[name] as Task)());
      }
    }
    if (round >= options.warmup) for (const name of names) (samples[name] as number[]).push(median(runs[name] as number[]));
    options.onRound?.(round);
  }
  return samples;
}
