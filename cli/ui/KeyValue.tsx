// The single-object view on a terminal: aligned keys, values on one line, cut to the width.
import { Box, Text } from 'ink';
import { displayWidth, pad, truncate } from './cells.js';

/** Props of the key/value view: entries with values already turned into text. */
export interface KeyValueProps {
  entries: readonly (readonly [string, string])[];
  width: number;
}

/** Keys in bold, aligned, each value cut with `…` to fit the line. */
export function KeyValue({ entries, width }: KeyValueProps) {
  const keyWidth = Math.min(30, Math.max(0, ...entries.map(([k]) => displayWidth(k))));
  const valueWidth = Math.max(10, width - keyWidth - 2);
  return (
    <Box flexDirection="column">
      {entries.map(([k, v]) => (
        <Text key={k}>
          <Text bold>{pad(truncate(k, keyWidth), keyWidth)}</Text>
          {`  ${truncate(v, valueWidth)}`}
        </Text>
      ))}
    </Box>
  );
}
