import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { lazyUnicodeSource } from './build-lazy-unicode.js';
import { lazyRegExp, lazySegmenter, narrowWidth } from './lazy-unicode.js';

const segments = (s: Intl.Segments): Intl.SegmentData[] => [...s].map(({ segment, index, input }) => ({ segment, index, input }));
const ESC = String.fromCharCode(27);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Node's lookup: the nearest node_modules/<name> from a folder up.
const from = (dir: string, name: string): string => {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', name, 'package.json'))) return join(at, 'node_modules', name);
    if (dirname(at) === at) throw new Error(`${name} is not installed`);
  }
};

describe('lazySegmenter', () => {
  const texts = ['', 'a', 'Bench assistant 20', `${ESC}[36mid${ESC}[39m  name`, 'a\r\nb', '\r\n\r\n', '\r\r\n\n', 'tab\there\x00\x7f', 'x\r'];

  it('splits ASCII text into the grapheme clusters Intl.Segmenter finds (CR LF is one)', () => {
    const real = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const lazy = lazySegmenter(undefined, { granularity: 'grapheme' });
    for (const text of texts) {
      expect(segments(lazy.segment(text))).toEqual(segments(real.segment(text)));
      for (const at of [-1, 0, 1, 2, 3, text.length - 1, text.length, Number.NaN, 1.7]) {
        const want = real.segment(text).containing(at);
        const got = lazy.segment(text).containing(at);
        expect(got && { segment: got.segment, index: got.index, input: got.input }).toEqual(want && { segment: want.segment, index: want.index, input: want.input });
      }
    }
  });

  it('splits simple non-ASCII text (Latin letters, punctuation such as …, currency signs) as Intl.Segmenter does', () => {
    const real = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const lazy = lazySegmenter(undefined, { granularity: 'grapheme' });
    for (const text of ['0cec1c61-b557-4b28…', 'café crème', 'Straße – 5 € · 10 ‰', '“quoted” ‘x’ •', 'ñ\r\n…']) {
      expect(segments(lazy.segment(text)), text).toEqual(segments(real.segment(text)));
    }
    // Every character of the simple set, alone and between others.
    for (let cp = 0xa0; cp <= 0x20c0; cp++) {
      const c = String.fromCodePoint(cp);
      const text = `a${c}${c}b${c}`;
      expect(segments(lazy.segment(text)), `U+${cp.toString(16)}`).toEqual(segments(real.segment(text)));
    }
  });

  it('hands other text, and other granularities, to a real Intl.Segmenter', () => {
    for (const text of ['café', '日本語', '👩‍💻 dev', 'e\u0301', '🇫🇷']) {
      expect(segments(lazySegmenter().segment(text))).toEqual(segments(new Intl.Segmenter().segment(text)));
    }
    const words = lazySegmenter('en', { granularity: 'word' });
    expect([...words.segment('two words')].map((s) => s.segment)).toEqual(['two', ' ', 'words']);
    expect(words.resolvedOptions().granularity).toBe('word');
  });
});

describe('lazyRegExp', () => {
  it('behaves as the regular expression it stands for', () => {
    const lazy = lazyRegExp('^\\p{RGI_Emoji}$', 'v');
    expect(lazy.test('👩‍💻')).toBe(true);
    expect(lazy.test('a')).toBe(false);
    // The shortcut for simple text gives the emoji set's own answer for every character near it.
    const fresh = (): RegExp => lazyRegExp('^\\p{RGI_Emoji}$', 'v');
    const real = new RegExp('^\\p{RGI_Emoji}$', 'v');
    for (let cp = 0x20; cp <= 0x2100; cp++) {
      const c = String.fromCodePoint(cp);
      for (const text of [c, `${c}\ufe0f`, `${c}…`]) expect(fresh().test(text), `U+${cp.toString(16)}`).toBe(real.test(text));
    }
    const pictographs = lazyRegExp('\\p{Extended_Pictographic}', 'gu');
    expect('👩‍💻👩'.match(pictographs)).toEqual(['👩', '💻', '👩']);
    expect('ab💻'.search(lazyRegExp('\\p{Extended_Pictographic}', 'u'))).toBe(2);
    expect('a1b2'.replace(lazyRegExp('\\d', 'g'), '#')).toBe('a#b#');
    expect('a,b'.split(lazyRegExp(',', ''))).toEqual(['a', 'b']);
  });
});

// Both copies of string-width the Ink script wraps: Ink's own, and the older one wrap-ansi nests
// (it counts the text-style emoji (c) and (r) as two columns).
type Width = typeof stringWidth;
const nested = join(from(from(from(ROOT, 'ink'), 'wrap-ansi'), 'string-width'), 'index.js');
const copies: [string, Width][] = [
  ['string-width', stringWidth],
  [`wrap-ansi's string-width`, ((await import(pathToFileURL(nested).href)) as { default: Width }).default],
];

describe.each(copies)('narrowWidth around %s', (_name, stringWidth) => {
  const width = narrowWidth(stringWidth, stripAnsi);

  it("gives string-width's answer for every character up to U+2100, alone, repeated and among styled text", () => {
    for (let cp = 0; cp <= 0x2100; cp++) {
      const c = String.fromCodePoint(cp);
      for (const text of [c, `a${c}${c}b`, `${ESC}[36m${c}${ESC}[39m…`, `${c}\u0301`, `${c}\ufe0f`]) {
        expect(width(text), `U+${cp.toString(16)} in ${JSON.stringify(text)}`).toBe(stringWidth(text));
      }
    }
    // Ambiguous characters counted wide, and escape codes counted, are string-width's own work.
    for (const text of ['…', '± 5 €', `${ESC}[36mid${ESC}[39m`]) {
      expect(width(text, { ambiguousIsNarrow: false })).toBe(stringWidth(text, { ambiguousIsNarrow: false }));
      expect(width(text, { countAnsiEscapeCodes: true })).toBe(stringWidth(text, { countAnsiEscapeCodes: true }));
    }
    expect(width('…', { ambiguousIsNarrow: false })).toBe(2);
  });

  it("gives string-width's answer for any text", () => {
    const piece = fc.oneof(
      fc.constantFrom(`${ESC}[1m`, `${ESC}[22m`, `${ESC}[38;5;208m`, '…', '日本', '👩‍💻', '\u00ad', '\t', '\r\n'),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(width(text)).toBe(stringWidth(text));
      }),
      { numRuns: 1000 },
    );
    expect(width(42 as unknown as string)).toBe(0);
  });
});

describe('lazyUnicodeSource (the build plugin)', () => {
  it('defers the Segmenters and the emoji set of the installed Ink text helpers', () => {
    // Each file Ink draws with that creates them at load: if an upgrade moves them, this fails
    // (tables would still draw the same, only slower).
    const ink = from(ROOT, 'ink');
    const files = [
      join(from(ink, 'string-width'), 'index.js'),
      join(from(ink, 'slice-ansi'), 'tokenize-ansi.js'),
      join(from(ink, '@alcalzone/ansi-tokenize'), 'build', 'tokenize.js'),
      join(from(from(ink, 'wrap-ansi'), 'string-width'), 'index.js'),
    ];
    for (const file of files) {
      const out = lazyUnicodeSource(readFileSync(file, 'utf8'));
      expect(out, file).toBeDefined();
      expect(out, file).not.toContain('new Intl.Segmenter(');
      expect(out, file).not.toContain('/^\\p{RGI_Emoji}$/v');
    }
    // Both string-width copies get the narrow-text shortcut around their default export.
    for (const file of [files[0], files[3]] as string[])
      expect(lazyUnicodeSource(readFileSync(file, 'utf8')), file).toMatch(/^function stringWidth\(.*\nexport default __voiceNarrowWidth\(stringWidth, stripAnsi\);\n$/ms);
    expect(lazyUnicodeSource('export const x = 1;')).toBeUndefined();
  });
});
