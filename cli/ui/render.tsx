// Entry of the Ink chunk: renders a view to a string sized for the terminal. Loaded with import()
// by cli/output/print.ts only when stdout is a terminal. It imports nothing from the rest of the
// CLI, so the modules of the JSON and piped paths stay in as few chunks as possible.
import { renderToString } from 'ink';
import { KeyValue } from './KeyValue.js';
import { Table } from './Table.js';

/** A view whose cells are already text for a terminal. */
export type TtyView = { kind: 'table'; headers: string[]; rows: string[][]; idColumn: number } | { kind: 'object'; entries: [string, string][] };

/** Renders a table or key/value view for a terminal of the given width (`wide`: nothing cut). */
export function renderView(view: TtyView, opts: { width: number; wide?: boolean }): string {
  const node =
    view.kind === 'table' ? (
      <Table headers={view.headers} rows={view.rows} width={opts.width} idColumn={view.idColumn} wide={opts.wide ?? false} />
    ) : (
      <KeyValue entries={view.entries} width={opts.width} />
    );
  // A wide table is as wide as its lines: Ink would otherwise wrap them at the terminal's width.
  return `${renderToString(node, { columns: opts.wide ? 100_000 : opts.width })}\n`;
}
