import * as library from '@alcalzone/ansi-tokenize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { styledCharsFromTokens, styledCharsToString, tokenize } from './styled-chars.js';

const ESC = String.fromCharCode(27);
/** SGR codes chalk writes (colours, intensity, reset, 256 and true colour), plus a link. */
const CODES = ['0', '1', '2', '3', '4', '22', '23', '24', '36', '39', '31', '41', '49', '38;5;208', '48;2;10;20;30', '1;36', '2;3'].map((c) => `${ESC}[${c}m`);
const LINK = `${ESC}]8;;https://example.test${String.fromCharCode(7)}`;
const piece = fc.oneof(fc.constantFrom(...CODES, LINK), fc.constantFrom('a', ' ', '…', 'é', '日', '👩‍💻', 'x'), fc.string({ maxLength: 4 }));
const styledText = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

describe("styled characters (Ink's frame)", () => {
  it('turn text into the characters and styles the library gives', () => {
    fc.assert(
      fc.property(styledText, (text) => {
        expect(styledCharsFromTokens(tokenize(text))).toEqual(library.styledCharsFromTokens(library.tokenize(text)));
      }),
      { numRuns: 500 },
    );
  });

  it("write a line of cells back as the library's text, whatever the neighbouring cells' styles", () => {
    // A line of Ink's grid: runs of written text (sharing styles) among blank cells of their own.
    const blank = (): library.StyledChar => ({ type: 'char', value: ' ', fullWidth: false, styles: [] });
    const line = fc.array(fc.oneof(styledText, fc.integer({ min: 1, max: 3 })), { maxLength: 8 });
    fc.assert(
      fc.property(line, (parts) => {
        const ours = parts.flatMap((p) => (typeof p === 'number' ? Array.from({ length: p }, blank) : styledCharsFromTokens(tokenize(p))));
        const theirs = parts.flatMap((p) => (typeof p === 'number' ? Array.from({ length: p }, blank) : library.styledCharsFromTokens(library.tokenize(p))));
        expect(styledCharsToString(ours)).toBe(library.styledCharsToString(theirs));
      }),
      { numRuns: 500 },
    );
    const cyan = `${ESC}[36m`;
    expect(styledCharsToString(styledCharsFromTokens(tokenize(`${cyan}id${ESC}[39m  name`)))).toBe(`${cyan}id${ESC}[39m  name`);
    expect(styledCharsToString([])).toBe('');
  });
});
