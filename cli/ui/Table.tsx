// The list view on a terminal: a header and one line per item, every column fitted to the width.
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { displayWidth, fitWidths, pad, truncate } from './cells.js';

/** Props of the table: headers, the cells already turned into text, the terminal width. */
export interface TableProps {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  width: number;
  /** Index of the id column, drawn in a colour and never cut. */
  idColumn?: number;
  /** Every cell whole, however wide the lines get. */
  wide?: boolean;
}

/**
 * A row's cells as Ink children: a styled cell is a <Text>, and each run of plain cells one
 * string (fewer elements for React and Ink to build than a <Text> per cell; the same text).
 */
function styledRuns(cells: readonly string[], style: (i: number) => { color: string | undefined; dimColor: boolean }): ReactNode[] {
  const children: ReactNode[] = [];
  let plain = '';
  cells.forEach((cell, i) => {
    const text = i === 0 ? cell : `  ${cell}`;
    const { color, dimColor } = style(i);
    if (!color && !dimColor) {
      plain += text;
      return;
    }
    if (plain) children.push(plain);
    plain = '';
    children.push(
      <Text key={i} color={color} dimColor={dimColor}>
        {text}
      </Text>,
    );
  });
  if (plain) children.push(plain);
  return children;
}

/**
 * A table of rows under a bold header, cells cut with `…` so each line fits the width; the id
 * column is never cut (other columns shrink, then the last ones are left out). `wide` cuts nothing.
 */
export function Table({ headers, rows, width, idColumn = 0, wide = false }: TableProps) {
  const natural = headers.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const widths = wide ? natural : fitWidths(natural, width, 2, 4, idColumn);
  const visible = widths.map((w, i) => (w > 0 ? i : -1)).filter((i) => i >= 0);
  const line = (cells: readonly string[]): string[] =>
    visible.map((i, n) => {
      const w = widths[i] as number;
      const cut = truncate(cells[i] ?? '', w);
      return n === visible.length - 1 ? cut : pad(cut, w);
    });
  const shownId = visible.indexOf(idColumn);
  return (
    <Box flexDirection="column">
      <Text bold>{line(headers).join('  ')}</Text>
      {rows.map((row, r) => (
        <Text key={r}>{styledRuns(line(row), (i) => ({ color: i === shownId ? 'cyan' : undefined, dimColor: headers[visible[i] as number] === 'CREATED' }))}</Text>
      ))}
      {rows.length === 0 ? <Text dimColor>No items.</Text> : null}
      {visible.length < headers.length ? (
        <Text
          dimColor
        >{`${headers.length - visible.length} column${headers.length - visible.length === 1 ? '' : 's'} left out to fit (${headers.filter((_, i) => !visible.includes(i)).join(', ')}): --wide shows all, --columns picks`}</Text>
      ) : null}
    </Box>
  );
}
