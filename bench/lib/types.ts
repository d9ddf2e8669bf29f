// Shapes shared by every benchmark and the harness that prints them.

/**
 * A verdict: a budget held (its whole spread inside), missed (the median outside), unsteady (the
 * median holds but the spread crosses the budget), or a figure reported without a budget.
 */
export type Verdict = 'PASS' | 'FAIL' | 'UNSTEADY' | 'INFO';

/** The interquartile range of what a budget is checked on (per-round ratios, or the samples). */
export interface Spread {
  low: number;
  high: number;
  /** What it is the spread of: the per-round ratios, or the figure's samples. */
  of?: 'ratio' | 'figure';
}

/** A budget on one row: the ratio (figure / reference) or the figure itself against a limit. */
export interface Budget {
  op: '<=' | '>=';
  limit: number;
  on: 'ratio' | 'figure';
}

/** A measured figure with its spread over the runs. */
export interface Figure {
  value: number;
  min?: number;
  max?: number;
  samples?: number;
}

/** One result line: a figure, the reference it is compared with, the ratio, the budget and the verdict. */
export interface Row {
  bench: string;
  metric: string;
  unit: string;
  figure: Figure;
  reference?: Figure & { label: string };
  ratio?: number;
  /** The interquartile range of the per-round ratios (or of the samples for a figure budget). */
  spread?: Spread;
  budget?: Budget;
  verdict: Verdict;
  note?: string;
}

/** What the harness hands every benchmark. */
export interface BenchContext {
  /** Tiny iteration counts, used by the smoke test; the figures mean little. */
  quick: boolean;
  /** Repository root. */
  root: string;
  /** A private scratch directory, removed at the end of the run. */
  tmp: string;
  /** Progress chatter on stderr. */
  log: (message: string) => void;
}

/** A named benchmark producing result rows. */
export interface Benchmark {
  name: string;
  title: string;
  run: (ctx: BenchContext) => Promise<Row[]>;
}
