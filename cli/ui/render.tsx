// Entry of the Ink chunk: renders a view to a string sized for the terminal. Loaded with import()
// by cli/output/print.ts only when stdout is a terminal.
import { renderToString } from 'ink';
import type { View } from '../output/format.js';
import { relativeTime, ttyCell } from '../output/format.js';
import { KeyValue } from './KeyValue.js';
import { Table } from './Table.js';

/** Renders a table, key/value or text view for a terminal of the given width. */
export function renderView(view: View, opts: { width: number; color: boolean }): string {
  if (view.kind === 'text') return view.text === '' ? '' : `${view.text.replace(/\n?$/, '\n')}`;
  const now = Date.now();
  const node =
    view.kind === 'table' ? (
      <Table headers={view.headers} rows={view.rows.map((row) => row.map((v, i) => ttyCell(view.fields[i] as string, v, now)))} width={opts.width} idColumn={view.fields.indexOf('id')} />
    ) : (
      <KeyValue entries={view.entries.map(([k, v]) => [k, typeof v === 'string' && /At$/.test(k) && !Number.isNaN(Date.parse(v)) ? `${v} (${relativeTime(v, now)})` : ttyCell(k, v, now)] as const)} width={opts.width} />
    );
  return `${renderToString(node, { columns: opts.width })}\n`;
}
