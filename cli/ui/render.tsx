// Entry of the Ink chunk: renders a view to a string sized for the terminal. Loaded with import()
// by cli/output/print.ts only when stdout is a terminal. It imports nothing from the rest of the
// CLI, so the modules of the JSON and piped paths stay in as few chunks as possible.
import { renderToString } from 'ink';
import { KeyValue } from './KeyValue.js';
import { Table } from './Table.js';

/** A view whose cells are already text for a terminal. */
export type TtyView =
  | { kind: 'table'; headers: string[]; rows: string[][]; idColumn: number }
  | { kind: 'object'; entries: [string, string][] };

/** Renders a table or key/value view for a terminal of the given width. */
export function renderView(view: TtyView, opts: { width: number }): string {
  const node = view.kind === 'table' ? <Table headers={view.headers} rows={view.rows} width={opts.width} idColumn={view.idColumn} /> : <KeyValue entries={view.entries} width={opts.width} />;
  return `${renderToString(node, { columns: opts.width })}\n`;
}
