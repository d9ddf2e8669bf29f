// Budget: `voice apply` of 200 resources <= 0.4x the server SDK's one-by-one creates. Measured gain
// (6 alternating runs each, machine shared, load average about 5): CPU of `voice apply` of 200
// files 360-450 -> 300-380 ms, wall 400-560 -> 350-480 ms; with the flag on the command line at
// load 4.7, CPU 360-400 -> 300-330 ms.
// A plan or an apply lives a few hundred milliseconds. V8 hands the functions that turn hot to its
// optimizing compiler on a background thread, and in a run this short most of that work is spent
// before it pays back, on the core the server being applied to needs. Raising the interrupt
// budget (how much bytecode a function runs before V8 considers optimizing it) makes tiering up
// later, not never: code that stays hot (an apply of thousands of files) is still optimized.
import { setFlagsFromString } from 'node:v8';

/** How much bytecode runs before a function is considered for optimization (V8's default: 67,584). */
export const SHORT_RUN_BUDGET = 1_000_000;

/** Makes V8 optimize later in this process, for commands that finish in well under a second of work per file. */
export function preferShortRun(): void {
  try {
    setFlagsFromString(`--interrupt-budget=${SHORT_RUN_BUDGET}`);
  } catch {
    // Another engine or a frozen flag set: the ordinary tiering runs.
  }
}
