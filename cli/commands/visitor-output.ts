// Thin output adapter for `voice visitor` until the shared cli/output module lands: JSON with
// --json, tab-separated plain text when piped, an aligned table on a terminal; data to stdout,
// messages to stderr.

/** How to print: exact JSON, plain tab-separated text, or a table for people. */
export type OutputFormat = 'json' | 'plain' | 'human';

/** Picks the format from `--json` and whether stdout is a terminal. */
export function outputFormat(json: boolean | undefined, stream: { isTTY?: boolean } = process.stdout): OutputFormat {
  return json ? 'json' : stream.isTTY ? 'human' : 'plain';
}

/** Writes data to stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Writes a message for people to stderr. */
export function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** Prints a value as exact JSON. */
export function printJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

// Tabs and newlines inside a cell would break tab-separated output for `cut` and friends.
function cell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r?\n/g, '\\n');
}

function clip(value: string, width: number): string {
  const flat = value.replace(/\s+/g, ' ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** Prints rows: tab-separated without a header when plain, aligned under a header for people. */
export function printTable(format: Exclude<OutputFormat, 'json'>, headers: string[], rows: string[][], maxWidth = 60): void {
  if (format === 'plain') {
    for (const row of rows) out(row.map(cell).join('\t'));
    return;
  }
  const shown = rows.map((row) => row.map((v) => clip(v, maxWidth)));
  const widths = headers.map((h, i) => Math.max(h.length, ...shown.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i] ?? 0))).join('  ');
  out([line(headers), ...shown.map(line)].join('\n'));
}

/** Prints one record as `key<TAB>value` lines when plain, aligned `key  value` lines for people. */
export function printRecord(format: Exclude<OutputFormat, 'json'>, pairs: Array<[string, string]>): void {
  if (format === 'plain') {
    for (const [k, v] of pairs) out(`${k}\t${cell(v)}`);
    return;
  }
  const width = Math.max(...pairs.map(([k]) => k.length));
  out(pairs.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'));
}
