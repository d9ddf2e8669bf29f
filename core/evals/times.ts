// The last run's times of each case (`DIR/.voice-times.json`), which `--shard` balances by: an
// eval's milliseconds, a simulation's per iteration. Every run updates the cases it ran; a merge
// of sharded reports can write the whole run's. Commit it (or restore it from a CI cache) so every
// job of a sharded run reads the same times and cuts the same partition.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestReport } from './runner.js';

/** The file's name in the resources folder (a dot file: the resource reader skips it). */
export const TIMES_FILE = '.voice-times.json';

/** Milliseconds by case key. */
export type Times = Record<string, number>;

/** The times a file holds (none when it is missing or unreadable: sharding then balances by count). */
export function readTimes(path: string): Times {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { voiceTimes?: unknown; ms?: unknown };
    if (parsed.voiceTimes !== 1 || !parsed.ms || typeof parsed.ms !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed.ms as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0));
  } catch {
    return {};
  }
}

/** The times a report measured: an eval's run, a simulation's mean iteration. */
export function timesOf(report: TestReport): Times {
  const out: Times = {};
  for (const e of report.evals) out[`evals/${e.id}`] = e.ms;
  for (const s of report.simulations) {
    const ms = s.iterations.flatMap((i) => (typeof i.ms === 'number' ? [i.ms] : []));
    if (ms.length) out[`simulations/${s.id}`] = ms.reduce((a, b) => a + b, 0) / ms.length;
  }
  return out;
}

/** The weight of each case for `iterations` per simulation. */
export function weightsOf(times: Times, iterations: number): Times {
  return Object.fromEntries(Object.entries(times).map(([k, ms]) => [k, k.startsWith('simulations/') ? ms * iterations : ms]));
}

/** Writes the times (rounded to 10 ms, keys sorted: a small, stable diff), merged over what the file had. */
export function writeTimes(path: string, times: Times): void {
  const all = { ...readTimes(path), ...times };
  const ms = Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((k) => [k, Math.max(10, Math.round((all[k] as number) / 10) * 10)]),
  );
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ voiceTimes: 1, ms }, null, 2)}\n`);
  renameSync(tmp, path);
}

/** The times file of a resources folder. */
export function timesPath(dir: string): string {
  return join(dir, TIMES_FILE);
}
