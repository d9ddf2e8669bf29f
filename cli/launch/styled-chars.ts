// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain (20
// assistants, 31 alternating launches): 198 -> 184 ms, 2.34x -> 2.17x.
// Ink's frame for the Ink script (cli/launch/build-ink-script.js points Ink's output.js here instead
// of @alcalzone/ansi-tokenize): Ink lays a table out as a grid of one object per cell, and turns each
// line back into text by diffing the styles of every cell with the cell before it: three Sets and
// four arrays a cell, a hundred cells a line, in code that runs once per start and so is never
// optimised. Here the characters of one run of text share their styles array, and a cell whose
// styles equal its neighbour's adds no codes without diffing. The text is the library's, character
// for character (cli/launch/styled-chars.test.ts compares them).
import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental } from '@alcalzone/ansi-tokenize';
import type { AnsiCode, StyledChar, Token } from '@alcalzone/ansi-tokenize';

export { tokenize } from '@alcalzone/ansi-tokenize';

/** The characters of `tokens`, each with the styles in force (characters between two codes share one array: never mutate it). */
export function styledCharsFromTokens(tokens: Token[]): StyledChar[] {
  let styles: AnsiCode[] = [];
  const chars: StyledChar[] = [];
  for (const token of tokens) {
    if (token.type === 'ansi') styles = reduceAnsiCodesIncremental(styles, [token]);
    else chars.push({ type: 'char', value: token.value, fullWidth: token.fullWidth, styles });
  }
  return chars;
}

/** True when two style lists hold the same codes in the same order (the diff between them is empty). */
function sameStyles(a: readonly AnsiCode[], b: readonly AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if ((a[i] as AnsiCode).code !== (b[i] as AnsiCode).code || (a[i] as AnsiCode).endCode !== (b[i] as AnsiCode).endCode) return false;
  return true;
}

/** The text of styled characters: each change of style written as the codes it takes, every style closed at the end. */
export function styledCharsToString(chars: StyledChar[]): string {
  let text = '';
  let styles: AnsiCode[] = [];
  for (const char of chars) {
    if (!sameStyles(styles, char.styles)) text += ansiCodesToString(diffAnsiCodes(styles, char.styles));
    text += char.value;
    styles = char.styles;
  }
  return styles.length > 0 ? text + ansiCodesToString(diffAnsiCodes(styles, [])) : text;
}
