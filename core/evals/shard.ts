// `voice test --shard I/N`: a deterministic slice of a folder's cases, so N jobs together run each
// case exactly once. Cases are placed longest first on the least loaded shard (by the last run's
// times when known, else one unit each: then shard sizes differ by one case at most). Every job
// cuts the same partition from the same cases and times, and says which one (its fingerprint), so
// a merge can tell a missing shard or jobs that cut differently from a complete run.
import { createHash } from 'node:crypto';

/** The slice a sharded run was, as its report carries it. */
export interface ShardInfo {
  index: number;
  total: number;
  /** Cases in all shards together. */
  cases: number;
  /** Cases in this shard. */
  picked: number;
  /** Identifies the partition (the case keys and weights): every shard of one run has the same. */
  partition: string;
  balancedBy: 'count' | 'times';
}

/** Parses `I/N`; a string says what is wrong. */
export function parseShard(text: string): { index: number; total: number } | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return 'expected I/N, e.g. 1/3 (the first of three shards)';
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || total > 1000) return 'N must be from 1 to 1000';
  if (index < 1 || index > total) return `I must be from 1 to ${total}`;
  return { index, total };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Splits case keys into `total` shards; `weights` are the expected milliseconds of the cases known. */
export function partition(keys: readonly string[], total: number, weights: Readonly<Record<string, number>> = {}): { shards: string[][]; balancedBy: ShardInfo['balancedBy']; fingerprint: string } {
  const sorted = [...new Set(keys)].sort();
  const known = sorted.flatMap((k) => (typeof weights[k] === 'number' && (weights[k] as number) > 0 ? [weights[k] as number] : []));
  const balancedBy = known.length ? 'times' : 'count';
  // An unknown case weighs what a typical known one does.
  const typical = known.length ? median(known) : 1;
  const weighed = sorted.map((key) => ({ key, w: balancedBy === 'times' ? Math.max(1, Math.round(weights[key] ?? typical)) : 1 }));
  const order = [...weighed].sort((a, b) => b.w - a.w || (a.key < b.key ? -1 : 1));
  const shards = Array.from({ length: total }, () => ({ keys: [] as string[], load: 0 }));
  for (const c of order) {
    let best = shards[0] as (typeof shards)[number];
    for (const s of shards) if (s.load < best.load || (s.load === best.load && s.keys.length < best.keys.length)) best = s;
    best.keys.push(c.key);
    best.load += c.w;
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([total, weighed]))
    .digest('hex')
    .slice(0, 12);
  return { shards: shards.map((s) => s.keys.sort()), balancedBy, fingerprint };
}

/** The cases of shard `index` of `total`, and what its report says of it. */
export function shardOf(keys: readonly string[], index: number, total: number, weights?: Readonly<Record<string, number>>): { keys: Set<string>; info: ShardInfo } {
  const cut = partition(keys, total, weights);
  const mine = cut.shards[index - 1] ?? [];
  return { keys: new Set(mine), info: { index, total, cases: new Set(keys).size, picked: mine.length, partition: cut.fingerprint, balancedBy: cut.balancedBy } };
}
