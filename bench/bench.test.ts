// Smoke test of `npm run bench`: every benchmark runs once with tiny iterations (`--quick`) and
// yields numeric figures with verdicts. No timing is asserted: figures of a quick run mean little.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from './lib/types.js';

const root = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'voice-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const names = execFileSync(process.execPath, ['bench/run.js', '--list'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
// The three heaviest even when quick (two Vite builds and Lighthouse runs, Lighthouse on the
// inspector, valgrind): about 100 s of both cores, a tenth of the suite. `npm test` smokes the
// rest; `VOICE_BENCH_SMOKE=all` smokes these too, and every full `npm run bench` runs them whole.
const HEAVY = new Set(['demo-page', 'inspector', 'cli-instructions']);
const smoked = process.env.VOICE_BENCH_SMOKE === 'all' ? names : names.filter((name) => !HEAVY.has(name));
// Benchmarks that report without a budget (design.md sets none for them).
const informational = new Set(['emulator', 'cli-instructions']);

describe('npm run bench', () => {
  it('lists every benchmark', () => {
    expect(names).toEqual(expect.arrayContaining(['cli-start', 'client-throughput', 'emulator', 'calls', 'webcall-size', 'demo-page', 'demo-start', 'reset', 'apply', 'audio', 'audio-call']));
  });

  it('refuses an unknown benchmark with a usage error naming it', async () => {
    const result = await execa(process.execPath, ['bench/run.js', 'no-such-bench'], { cwd: root, reject: false });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('unknown benchmark "no-such-bench"');
  });

  it.each(smoked)(
    '%s runs once and reports figures with verdicts',
    async (name) => {
      const file = join(dir, `${name}.json`);
      const result = await execa(process.execPath, ['bench/run.js', name, '--quick', '--json', file], { cwd: root, reject: false, timeout: 240_000 });
      // 0: every budget held, 1: a budget missed, 3: unsteady; each is a working benchmark.
      expect([0, 1, 3], result.stderr).toContain(result.exitCode);
      const { rows, quick } = JSON.parse(readFileSync(file, 'utf8')) as { rows: Row[]; quick: boolean };
      expect(quick).toBe(true);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.bench).toBe(name);
        // The instruction count needs valgrind; a machine without it gets a row saying so.
        if (name === 'cli-instructions' && row.note?.startsWith('error: no valgrind')) continue;
        expect(Number.isFinite(row.figure.value), `${row.metric}: ${row.note ?? ''}`).toBe(true);
        expect(['PASS', 'FAIL', 'UNSTEADY', 'INFO']).toContain(row.verdict);
        if (row.budget) expect(['PASS', 'FAIL', 'UNSTEADY']).toContain(row.verdict);
        if (row.spread) expect(row.spread.low).toBeLessThanOrEqual(row.spread.high);
      }
      if (!informational.has(name)) expect(rows.some((row) => row.budget)).toBe(true);
      expect(result.stdout).toContain('## Summary');
      expect(result.stdout).toContain(`| ${name} |`);
    },
    300_000,
  );
});
