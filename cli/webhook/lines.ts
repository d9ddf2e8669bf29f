// One event per line, in the run's mode: aligned and coloured on a terminal, tab-separated
// plain text when piped, JSON lines with --json. Used by `voice listen` and `voice call watch`.
import { out } from '../redact.js';
import type { OutputSettings } from '../output/mode.js';

/** A line of output: its columns for people, its object for --json. */
export interface Line {
  /** When it happened. */
  time: Date;
  /** Columns after the time, e.g. type, call id, detail. */
  columns: readonly string[];
  /** Widths of the first columns on a terminal (the last column is never padded). */
  widths?: readonly number[];
  /** Colour of the whole line on a terminal. */
  tone?: 'ok' | 'warn' | 'bad' | 'dim';
  /** What --json prints for this line; undefined: the line is for people only. */
  json?: Record<string, unknown>;
}

const TONES = { ok: [32, 39], warn: [33, 39], bad: [31, 39], dim: [2, 22] } as const;

const clock = (t: Date): string => t.toTimeString().slice(0, 8);

/** Formats a line for the run's mode (no trailing newline). */
export function formatLine(line: Line, settings: Pick<OutputSettings, 'mode' | 'color'>): string {
  if (settings.mode === 'json') return JSON.stringify({ time: line.time.toISOString(), ...line.json });
  if (settings.mode === 'plain') return [line.time.toISOString(), ...line.columns].map((c) => c.replace(/[\t\n]/g, ' ')).join('\t');
  const cols = line.columns.map((c, i) => (line.widths?.[i] ? c.padEnd(line.widths[i] as number) : c));
  const text = [clock(line.time), ...cols].join('  ').trimEnd();
  const tone = line.tone && settings.color ? TONES[line.tone] : undefined;
  return tone ? `\x1b[${tone[0]}m${text}\x1b[${tone[1]}m` : text;
}

/** Writes a line to stdout in the run's mode. */
export function printLine(line: Line, settings: Pick<OutputSettings, 'mode' | 'color'>): void {
  if (settings.mode === 'json' && !line.json) return;
  out(`${formatLine(line, settings)}\n`);
}
