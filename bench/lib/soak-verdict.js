// The soak's verdicts, apart from the run so a test can feed them samples: every call finished,
// enough samples to see a trend (a run too short judges nothing and fails), memory and data file
// level off (the last half no higher than 1.5x the level reached by the second tenth), and REST
// p99 in the last tenth within 1.5x of the first tenth (medians of the samples).

/** The q-quantile of numbers (NaN for none). */
export function quantile(xs, q) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** The checks of a run: `{ what, ok, figure }` each; the run passes only when every one is ok. */
export function soakChecks(samples, { finished, total, failedPlacements }) {
  const s = samples;
  const tenth = (i) => s.slice(Math.floor((i * s.length) / 10), Math.max(Math.floor(((i + 1) * s.length) / 10), Math.floor((i * s.length) / 10) + 1));
  const max = (xs, k) => Math.max(...xs.map((x) => x[k] ?? 0));
  const median = (xs, k) =>
    quantile(
      xs.map((x) => x[k]),
      0.5,
    );
  const lastHalf = s.slice(Math.floor(s.length / 2));
  // Trends need samples: a run too short to have them judges nothing, so it cannot pass.
  const enough = s.length >= 10;
  const judged = (ok) => enough && ok;
  // A trend's figure says when it was not judged, so a FAIL line never reads like a broken bound.
  const shown = (text) => (enough ? text : `${text}: not judged, too few samples`);
  return [
    { what: 'every call finished', ok: finished === total && failedPlacements === 0, figure: `${finished} of ${total} (${failedPlacements} refused)` },
    { what: 'enough samples to judge trends (>= 10, one every 5 s)', ok: enough, figure: `${s.length} samples` },
    {
      what: 'RSS levels off (last half max <= 1.5x second-tenth max)',
      ok: judged(max(lastHalf, 'rssMiB') <= 1.5 * max(tenth(1), 'rssMiB')),
      figure: shown(`${max(lastHalf, 'rssMiB')} MiB vs ${max(tenth(1), 'rssMiB')} MiB`),
    },
    {
      what: 'data file levels off (last half max <= 1.5x second-tenth max)',
      ok: judged(max(lastHalf, 'dataFileKiB') <= 1.5 * max(tenth(1), 'dataFileKiB')),
      figure: shown(`${max(lastHalf, 'dataFileKiB')} KiB vs ${max(tenth(1), 'dataFileKiB')} KiB`),
    },
    {
      what: 'REST p99, last tenth <= 1.5x first tenth (medians of the samples)',
      ok: judged(median(tenth(9), 'restP99Ms') <= 1.5 * median(tenth(0), 'restP99Ms')),
      figure: shown(`${median(tenth(9), 'restP99Ms')} ms vs ${median(tenth(0), 'restP99Ms')} ms`),
    },
  ];
}
