// The figures of a load run: every delivery's answer time, kept per message type, so the table's
// percentiles are exact (a run of 100,000 deliveries keeps 100,000 numbers, under a megabyte).
import type { Sample, TypeFigures } from './types.js';

/** The q-quantile (0..1) of ascending numbers, nearest rank; 0 for none. */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return 0;
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

interface PerType {
  ms: number[];
  errors: Record<string, number>;
  misses: number;
  deadline: number;
}

/** A delivery's outcome as the collector takes it. */
export interface Outcome {
  type: string;
  at: number;
  ms: number;
  /** HTTP status or failure kind when it failed. */
  error?: string;
  miss: boolean;
  deadlineSeconds: number;
}

/** Collects every delivery's outcome. */
export class LoadStats {
  private readonly types = new Map<string, PerType>();
  readonly samples: Sample[] = [];
  deliveries = 0;
  errors = 0;
  misses = 0;
  // The live p95 re-sorts a recent window only, so a long run's live line stays cheap.
  private readonly recent: number[] = [];

  /** Records one delivery. */
  add(o: Outcome): void {
    let t = this.types.get(o.type);
    if (!t) this.types.set(o.type, (t = { ms: [], errors: {}, misses: 0, deadline: o.deadlineSeconds }));
    t.ms.push(o.ms);
    this.deliveries++;
    if (o.error) {
      t.errors[o.error] = (t.errors[o.error] ?? 0) + 1;
      this.errors++;
    }
    if (o.miss) {
      t.misses++;
      this.misses++;
    }
    this.samples.push({ type: o.type, at: Math.round(o.at), ms: o.ms, failed: Boolean(o.error) });
    this.recent.push(o.ms);
    if (this.recent.length > 2000) this.recent.splice(0, 1000);
  }

  /** p95 of the recent deliveries (the live line's figure). */
  recentP95(): number {
    return quantile(
      [...this.recent].sort((a, b) => a - b),
      0.95,
    );
  }

  /** The table: one row per message type, in the order first seen. */
  table(): TypeFigures[] {
    return [...this.types].map(([type, t]) => {
      const sorted = [...t.ms].sort((a, b) => a - b);
      return {
        type,
        count: sorted.length,
        p50: quantile(sorted, 0.5),
        p95: quantile(sorted, 0.95),
        p99: quantile(sorted, 0.99),
        max: sorted.length ? (sorted[sorted.length - 1] as number) : 0,
        errors: { ...t.errors },
        misses: t.misses,
        deadlineSeconds: t.deadline,
      };
    });
  }
}
