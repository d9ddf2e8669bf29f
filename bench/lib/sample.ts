// Interleaved sampling: warm-up rounds, then rounds in which every task runs once, back to back
// (A B, B A, A B, ...), so machine noise lands on ours and the reference alike.

/** One measured task: returns the figure for one run (ms, req/s, ...). */
export type Task = () => Promise<number>;

/** Options for interleaved sampling. */
export interface SampleOptions {
  warmup: number;
  rounds: number;
  /** Called after each round (progress). */
  onRound?: (round: number) => void;
}

/** Runs the tasks in interleaved rounds after warm-up and returns each task's samples by name. */
export async function interleave(tasks: Record<string, Task>, options: SampleOptions): Promise<Record<string, number[]>> {
  const names = Object.keys(tasks);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < options.warmup + options.rounds; round++) {
    // The starting task rotates each round (A B, B A, ...) so no task always follows the same one.
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length] as string;
      const value = await (tasks[name] as Task)();
      if (round >= options.warmup) (samples[name] as number[]).push(value);
    }
    options.onRound?.(round);
  }
  return samples;
}

/** Milliseconds elapsed since a `performance.now()` mark. */
export function since(start: number): number {
  return performance.now() - start;
}
