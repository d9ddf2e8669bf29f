/** One sample of a soak run. */
export interface SoakSample {
  at: number;
  finished: number;
  rssMiB: number;
  restP99Ms: number;
  dataFileKiB: number;
  [figure: string]: number | null;
}

/** One verdict of a soak run. */
export interface SoakCheck {
  what: string;
  ok: boolean;
  figure: string;
}

/** The q-quantile of numbers (NaN for none). */
export function quantile(xs: number[], q: number): number;

/** The checks of a run; it passes only when every one is ok. */
export function soakChecks(samples: SoakSample[], run: { finished: number; total: number; failedPlacements: number }): SoakCheck[];
