// `npm run soak`'s verdicts on made-up runs: a level run passes; memory or the data file still
// growing, REST p99 worse at the end, unfinished calls or too few samples each fail it.
import { describe, expect, it } from 'vitest';
import { soakChecks } from './lib/soak-verdict.js';
import type { SoakSample } from './lib/soak-verdict.js';

const run = { finished: 20_000, total: 20_000, failedPlacements: 0 };
function samples(n: number, at: (i: number) => Partial<SoakSample> = () => ({})): SoakSample[] {
  return Array.from({ length: n }, (_, i) => ({ at: i * 5, finished: i * 100, rssMiB: 200, restP99Ms: 80, dataFileKiB: 8000, ...at(i) }));
}
const failing = (checks: { what: string; ok: boolean }[]): string[] => checks.filter((c) => !c.ok).map((c) => c.what);

describe('soak verdicts', () => {
  it('pass a run whose memory, data file and REST p99 level off', () => {
    const checks = soakChecks(
      samples(100, (i) => ({ rssMiB: Math.min(300, 150 + i * 10), dataFileKiB: Math.min(8000, i * 1000) })),
      run,
    );
    expect(failing(checks)).toEqual([]);
  });

  it('fail a run whose memory keeps growing', () => {
    expect(
      failing(
        soakChecks(
          samples(100, (i) => ({ rssMiB: 100 + i * 10 })),
          run,
        ),
      ),
    ).toEqual(['RSS levels off (last half max <= 1.5x second-tenth max)']);
  });

  it('fail a run whose data file keeps growing', () => {
    expect(
      failing(
        soakChecks(
          samples(100, (i) => ({ dataFileKiB: 1000 + i * 100 })),
          run,
        ),
      ),
    ).toEqual(['data file levels off (last half max <= 1.5x second-tenth max)']);
  });

  it('fail a run whose REST p99 in the last tenth is over 1.5x the first', () => {
    expect(
      failing(
        soakChecks(
          samples(100, (i) => ({ restP99Ms: i >= 90 ? 200 : 80 })),
          run,
        ),
      ),
    ).toEqual(['REST p99, last tenth <= 1.5x first tenth (medians of the samples)']);
  });

  it('fail a run that did not finish its calls, or had a call refused', () => {
    expect(failing(soakChecks(samples(100), { ...run, finished: 12_233 }))).toEqual(['every call finished']);
    expect(failing(soakChecks(samples(100), { ...run, failedPlacements: 1 }))).toEqual(['every call finished']);
  });

  it('fail a run too short to judge, whatever its figures', () => {
    const checks = soakChecks(samples(9), run);
    expect(failing(checks)).toEqual([
      'enough samples to judge trends (>= 10, one every 5 s)',
      'RSS levels off (last half max <= 1.5x second-tenth max)',
      'data file levels off (last half max <= 1.5x second-tenth max)',
      'REST p99, last tenth <= 1.5x first tenth (medians of the samples)',
    ]);
    // The trend lines say they were not judged, rather than reading like a broken bound.
    expect(checks.slice(2).every((c) => c.figure.endsWith(': not judged, too few samples'))).toBe(true);
  });
});
