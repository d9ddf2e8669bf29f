// CPU time (user + system) of a process and all its descendants, read from Linux's /proc: a figure
// that, unlike a latency, hardly depends on what else the machine runs. Undefined off Linux.
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's counters (USER_HZ: 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  ticks: number;
}

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** CPU milliseconds used so far by `root`'s live descendants (and `root` itself unless `withRoot` is false), leaving out the subtrees of `except`; undefined when /proc cannot tell. */
export function treeCpuMs(root: number | undefined, options: { withRoot?: boolean; except?: (number | undefined)[] } = {}): number | undefined {
  if (root === undefined || process.platform !== 'linux') return undefined;
  const all = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) all.set(Number(name), s);
  }
  if (!all.has(root)) return undefined;
  const children = new Map<number, number[]>();
  for (const [pid, s] of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const skip = new Set(options.except ?? []);
  let ticks = 0;
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop() as number;
    if (skip.has(pid)) continue;
    if (pid !== root || options.withRoot !== false) ticks += all.get(pid)?.ticks ?? 0;
    todo.push(...(children.get(pid) ?? []));
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * Resolves once `cpuMs()` (a CPU counter in ms, e.g. a process tree's) grows by less than `share`
 * of a core over `windowMs`, polled every `windowMs`; gives up after `maxMs` and says so (false).
 */
export async function settled(cpuMs: () => number | undefined, options: { windowMs?: number; share?: number; maxMs?: number } = {}): Promise<boolean> {
  const { windowMs = 250, share = 0.05, maxMs = 10_000 } = options;
  const start = performance.now();
  let before = cpuMs();
  if (before === undefined) return false;
  while (performance.now() - start < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = cpuMs();
    if (now === undefined) return false;
    if (now - before < share * windowMs) return true;
    before = now;
  }
  return false;
}
