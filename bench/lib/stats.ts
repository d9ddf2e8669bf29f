// Small statistics and row-building helpers; every figure the bench prints goes through here.
import type { Budget, Figure, Row, Spread, Verdict } from './types.js';

/** The q-quantile (0..1) of the values by nearest rank; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Median of the values (mean of the middle two for even counts); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The interquartile range (25th to 75th percentile, linear interpolation); undefined for fewer than 2 values. */
export function interquartile(values: readonly number[]): Spread | undefined {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length < 2) return undefined;
  const at = (q: number): number => {
    const pos = q * (sorted.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
  };
  return { low: at(0.25), high: at(0.75) };
}

/**
 * The verdict on a median and its spread: FAIL when the median misses the budget, UNSTEADY when
 * the median holds but the spread reaches past the budget, PASS when the whole spread holds.
 */
export function judge(value: number, spread: Spread | undefined, budget: Budget): Verdict {
  if (!holds(value, budget)) return 'FAIL';
  if (spread && !(holds(spread.low, budget) && holds(spread.high, budget))) return 'UNSTEADY';
  return 'PASS';
}

/** Median, min, max and count of a sample. */
export function summarize(values: readonly number[]): Figure {
  return {
    value: median(values),
    min: values.length ? Math.min(...values) : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
    samples: values.length,
  };
}

/** Whether a value holds a budget. */
export function holds(value: number, budget: Budget): boolean {
  if (!Number.isFinite(value)) return false;
  return budget.op === '<=' ? value <= budget.limit : value >= budget.limit;
}

interface RowInput {
  bench: string;
  metric: string;
  unit: string;
  figure: Figure | number[] | number;
  reference?: { label: string; figure: Figure | number[] | number };
  budget?: Budget;
  note?: string;
}

function toFigure(input: Figure | number[] | number): Figure {
  if (typeof input === 'number') return { value: input };
  if (Array.isArray(input)) return summarize(input);
  return input;
}

/**
 * The ratio of two interleaved samples: the median of the per-round ratios (round i of ours over
 * round i of the reference ran back to back, so they share the machine's state); for anything
 * else, the ratio of the medians.
 */
function roundRatios(ours: Figure | number[] | number, reference: Figure | number[] | number): number[] {
  if (!Array.isArray(ours) || !Array.isArray(reference) || ours.length !== reference.length || ours.length === 0) return [];
  return ours.map((value, i) => value / (reference[i] as number)).filter(Number.isFinite);
}

/**
 * Builds a row: computes the ratio (figure / reference) with the interquartile range of the
 * per-round ratios, and the verdict from the budget (see judge()). A figure budget's spread is
 * the interquartile range of the samples; a single measurement (a size) has none.
 */
export function row(input: RowInput): Row {
  const figure = toFigure(input.figure);
  const out: Row = { bench: input.bench, metric: input.metric, unit: input.unit, figure, verdict: 'INFO' };
  let ratioSpread: Spread | undefined;
  if (input.reference) {
    out.reference = { label: input.reference.label, ...toFigure(input.reference.figure) };
    const ratios = roundRatios(input.figure, input.reference.figure);
    out.ratio = ratios.length ? median(ratios) : figure.value / out.reference.value;
    ratioSpread = interquartile(ratios);
    if (ratioSpread) out.spread = { ...ratioSpread, of: 'ratio' };
  }
  if (input.budget) {
    out.budget = input.budget;
    const onRatio = input.budget.on === 'ratio';
    const spread = onRatio ? ratioSpread : Array.isArray(input.figure) ? interquartile(input.figure) : undefined;
    if (spread) out.spread = { ...spread, of: onRatio ? 'ratio' : 'figure' };
    out.verdict = judge(onRatio ? (out.ratio ?? Number.NaN) : figure.value, spread, input.budget);
  }
  if (input.note) out.note = input.note;
  return out;
}

/** A row for a measurement that could not be made, naming why; FAIL unless it was informational. */
export function errorRow(bench: string, metric: string, error: unknown, informational = false): Row {
  const message = error instanceof Error ? error.message : String(error);
  return { bench, metric, unit: '', figure: { value: Number.NaN }, verdict: informational ? 'INFO' : 'FAIL', note: `error: ${message}` };
}
