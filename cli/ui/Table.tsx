// The list view on a terminal: a header and one line per item, every column fitted to the width.
import { Box, Text } from 'ink';
import { displayWidth, fitWidths, pad, truncate } from './cells.js';

/** Props of the table: headers, the cells already turned into text, the terminal width. */
export interface TableProps {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  width: number;
  /** Index of the id column, drawn in a colour. */
  idColumn?: number;
}

/** A table of rows under a bold header, cells cut with `…` so each line fits the width. */
export function Table({ headers, rows, width, idColumn = 0 }: TableProps) {
  const natural = headers.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const widths = fitWidths(natural, width);
  const line = (cells: readonly string[]): string[] =>
    cells.map((c, i) => {
      const w = widths[i] as number;
      const cut = truncate(c, w);
      return i === cells.length - 1 ? cut : pad(cut, w);
    });
  return (
    <Box flexDirection="column">
      <Text bold>{line(headers).join('  ')}</Text>
      {rows.map((row, r) => (
        <Text key={r}>
          {line(row).map((cell, i) => (
            <Text key={i} color={i === idColumn ? 'cyan' : undefined} dimColor={headers[i] === 'CREATED'}>
              {i === 0 ? cell : `  ${cell}`}
            </Text>
          ))}
        </Text>
      ))}
      {rows.length === 0 ? <Text dimColor>No items.</Text> : null}
    </Box>
  );
}
