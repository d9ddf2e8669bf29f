// Sharding: every case in exactly one shard, sizes within one case by count, the slowest cases
// spread by time when times are known, the same cut every time, and merged reports judged again.
import { describe, expect, it } from 'vitest';
import { mergeReports } from './merge.js';
import type { SimulationReport, TestReport } from './runner.js';
import { parseShard, partition, shardOf } from './shard.js';

const keys = (n: number): string[] => Array.from({ length: n }, (_, i) => `evals/case-${String(i + 1).padStart(2, '0')}`);

describe('partition', () => {
  it('puts each case in exactly one shard, sizes within one case, for any N', () => {
    for (const n of [1, 2, 3, 7, 20, 21, 50]) {
      for (const total of [1, 2, 3, 4, 8, 60]) {
        const { shards, balancedBy } = partition(keys(n), total);
        expect(balancedBy).toBe('count');
        expect(shards.flat().sort()).toEqual(keys(n));
        const sizes = shards.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('is the same cut whatever order the cases come in, and names it', () => {
    const a = partition(keys(20), 3);
    const b = partition([...keys(20)].reverse(), 3);
    expect(b).toEqual(a);
    expect(partition(keys(21), 3).fingerprint).not.toBe(a.fingerprint);
    expect(partition(keys(20), 3, { 'evals/case-01': 5000 }).fingerprint).not.toBe(a.fingerprint);
  });

  it('balances by the last times when known: a slow case gets a shard to itself', () => {
    const weights = { 'evals/case-01': 10_000, 'evals/case-02': 1000, 'evals/case-03': 1000, 'evals/case-04': 1000, 'evals/case-05': 1000 };
    const { shards, balancedBy } = partition(keys(5), 2, weights);
    expect(balancedBy).toBe('times');
    expect(shards.find((s) => s.includes('evals/case-01'))).toEqual(['evals/case-01']);
    // A case with no time weighs what a typical case does.
    const mixed = partition([...keys(5), 'evals/new'], 2, weights);
    expect(mixed.shards.flat()).toHaveLength(6);
  });

  it('reads I/N and refuses what is not one', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    expect(parseShard('0/3')).toMatch(/from 1 to 3/);
    expect(parseShard('4/3')).toMatch(/from 1 to 3/);
    expect(parseShard('three')).toMatch(/I\/N/);
    expect(shardOf(keys(20), 3, 3).info).toMatchObject({ index: 3, total: 3, cases: 20, picked: 6, balancedBy: 'count' });
  });
});

function report(sims: Partial<SimulationReport>[], shard?: { index: number; total: number }): TestReport {
  const simulations = sims.map((s) => {
    const iterations = s.iterations ?? [];
    const passed = iterations.filter((i) => i.passed).length;
    return { id: 'x', file: 'f', name: 'n', passed, passRate: 0, verdict: 'pass' as const, ...s, iterations };
  });
  return {
    target: { type: 'assistant', id: 'a', label: 'a' },
    simulations,
    evals: [],
    ok: true,
    ms: 10,
    ...(shard ? { shard: { ...shard, cases: 2, picked: 1, partition: 'p1', balancedBy: 'count' as const } } : {}),
  };
}

describe('mergeReports', () => {
  const it1 = (passed: boolean) => ({ iteration: 1, status: passed ? 'passed' : 'failed', passed, evaluations: [], ms: 5, ...(passed ? {} : { reason: 'extracted moved' }) });

  it('a case that failed in one report and passed in another is flaky; a complete set of shards merges clean', () => {
    const merged = mergeReports([
      report([{ id: 'a', iterations: [it1(false)] }], { index: 1, total: 2 }),
      report([{ id: 'a', iterations: [it1(true)] }], { index: 1, total: 2 }),
      report([{ id: 'b', iterations: [it1(true)] }], { index: 2, total: 2 }),
    ]);
    expect(merged.problems).toEqual([]);
    expect(merged.report.simulations.map((s) => [s.id, s.verdict, s.iterations.map((i) => i.iteration)])).toEqual([
      ['a', 'flaky', [1, 2]],
      ['b', 'pass', [1]],
    ]);
    expect(merged.report.ok).toBe(false);
  });

  it('a missing shard fails the merge, saying which', () => {
    const merged = mergeReports([report([{ id: 'a', iterations: [it1(true)] }], { index: 1, total: 2 })]);
    expect(merged.problems).toEqual(['shard 2/2 is missing: no report of it was given']);
    expect(merged.report.ok).toBe(false);
  });
});
