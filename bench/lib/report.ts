// Printing: one line per row as results arrive, and the closing summary table (markdown, so the
// same text goes into the README).
import type { Figure, Row } from './types.js';

/** Formats a number with precision that suits its size. */
export function num(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  if (Number.isInteger(value) || abs >= 100) return Math.round(value).toLocaleString('en-US');
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function spread(figure: Figure): string {
  if (figure.samples === undefined || figure.samples < 2) return '';
  return ` [${num(figure.min)}–${num(figure.max)}, n=${figure.samples}]`;
}

/** The figure with its unit and spread, e.g. `62.1 ms [58.0–70.3, n=15]`. */
export function formatFigure(figure: Figure, unit: string): string {
  return `${num(figure.value)}${unit ? ` ${unit}` : ''}${spread(figure)}`;
}

/** A row's own figure, with the interquartile range when its budget is on the figure. */
function ownFigure(row: Row): string {
  return `${formatFigure(row.figure, row.unit)}${formatSpread(row, 'figure')}`;
}

/** The budget as text, e.g. `ratio <= 1.6x` or `<= 80 KiB`. */
export function formatBudget(row: Row): string {
  if (!row.budget) return '-';
  const { op, limit, on } = row.budget;
  return on === 'ratio' ? `ratio ${op} ${limit}x` : `${op} ${limit}${row.unit ? ` ${row.unit}` : ''}`;
}

/** The interquartile range of the per-round ratios (or of a budgeted figure), e.g. ` (IQR 1.21–1.30x)`. */
function formatSpread(row: Row, of: 'ratio' | 'figure'): string {
  const s = row.spread;
  if (!s || (s.of ?? 'ratio') !== of) return '';
  return ` (IQR ${num(s.low)}–${num(s.high)}${of === 'ratio' ? 'x' : row.unit ? ` ${row.unit}` : ''})`;
}

function formatRatio(row: Row): string {
  return row.ratio === undefined || !Number.isFinite(row.ratio) ? '-' : `${num(row.ratio)}x${formatSpread(row, 'ratio')}`;
}

/** One progress line for a row. */
export function formatLine(row: Row): string {
  const parts = [`  ${row.metric}: ${ownFigure(row)}`];
  if (row.reference) parts.push(`ref ${row.reference.label} ${formatFigure(row.reference, row.unit)}`);
  parts.push(`ratio ${formatRatio(row)}`, `budget ${formatBudget(row)}`, row.verdict);
  const line = parts.join(' | ');
  return row.note ? `${line}\n    (${row.note})` : line;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The summary as a markdown table. */
export function summaryTable(rows: readonly Row[]): string {
  const header = '| benchmark | metric | figure (median [min–max, n]) | reference | ratio (median of rounds, IQR) | budget | verdict |';
  const rule = '|---|---|---|---|---|---|---|';
  const lines = rows.map((row) => {
    const reference = row.reference ? `${row.reference.label}: ${formatFigure(row.reference, row.unit)}` : '-';
    return `| ${[row.bench, row.metric, ownFigure(row), reference, formatRatio(row), formatBudget(row), row.verdict].map(cell).join(' | ')} |`;
  });
  return [header, rule, ...lines].join('\n');
}

/** The notes worth reading under the table (errors, caveats), one per line. */
export function notes(rows: readonly Row[]): string[] {
  return rows.filter((row) => row.note).map((row) => `- ${row.bench} / ${row.metric}: ${row.note}`);
}
