// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain: the emoji
// regex (181 M instructions) and the first Intl.Segmenter (92 M) deferred; with the Ink code cache 3.04x -> 2.10x.
// string-width's shortcut for narrow text (`narrowWidth`, 2026-11-27; a table with a name cut by `…`,
// 31 alternating launches): 221 -> 198 ms, 2.61x -> 2.34x.
// Re-measured 2026-11-26, two shared cores at load average 13 to 25 (cli/launch/README.md):
// Ink table 994 M, 995 M instructions (1.97x `node -e 0`) with them, 1,329 M, 1,318 M (2.62x) with
// the Ink script built without them: over the 2.5x budget. Kept.
// Lazy stand-ins for the Unicode machinery Ink's text helpers (string-width, slice-ansi,
// @alcalzone/ansi-tokenize) create when their modules load. The build swaps them in
// (cli/launch/build-lazy-unicode.js). On Node 20 the first Intl.Segmenter costs about 90 M CPU instructions
// (V8 builds its list of locales) and /^\p{RGI_Emoji}$/v about 180 M (ICU builds the set of emoji
// strings): together more than a whole `node -e 0`, paid by every table drawn, although a table of
// plain text needs neither. Here the segmenter splits simple text (ASCII, Latin letters, common
// punctuation such as the table's `…`) itself, the emoji set answers for it, and the real objects
// are made on first need, so results are the same and only text that needs them pays for them.

type SegmenterArgs = ConstructorParameters<typeof Intl.Segmenter>;

/**
 * Text whose every character is its own grapheme cluster (CR LF aside) and none is an emoji:
 * ASCII, the Latin-1 Supplement and Latin Extended-A letters (é, ñ, ß, ...), and the common
 * punctuation (… – — ‘ ’ “ ” • ‰) and currency signs (€ £ ₹). None of them is a combining mark, a
 * joiner, a prepended mark, a regional indicator or a Hangul jamo (UAX #29), and no emoji sequence
 * is made of them alone: © ®, ‼ and ⁉ (emoji with a variation selector) are left out. The table's
 * own cut mark, `…`, is here: a truncated cell must not cost the whole Unicode machinery.
 */
const SIMPLE = /^[\0-\x7f\u00a0-\u00a8\u00aa-\u00ad\u00af-\u017f\u2010-\u2027\u2030-\u203b\u203d-\u2048\u204a-\u205e\u20a0-\u20c0]*$/;

/** The RGI emoji set, the one costly regular expression the build defers (cli/launch/build-lazy-unicode.js). */
const RGI_EMOJI = '^\\p{RGI_Emoji}$';

/** Characters of the simple set that take no column: controls and the soft hyphen. */
// eslint-disable-next-line no-control-regex -- controls are what it looks for
const ZERO_WIDTH = /[\0-\x1f\x7f\u00ad]/;

type StringWidth = (input: string, options?: { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean }) => number;

/**
 * string-width with its printable-ASCII shortcut widened to the simple set (no emoji, each
 * character its own cluster, one column wide unless it is a control or the soft hyphen): such text
 * is as wide as it is long once its escape codes are stripped (by string-width's own `stripAnsi`).
 * Other text, and ambiguous characters counted wide, go to string-width itself. A table cut with
 * `…` otherwise walks every line grapheme by grapheme through Unicode property regexes.
 */
export function narrowWidth(stringWidth: StringWidth, stripAnsi: (text: string) => string): StringWidth {
  return (input, options) => {
    if (typeof input !== 'string' || options?.ambiguousIsNarrow === false || options?.countAnsiEscapeCodes) return stringWidth(input, options);
    const text = input.includes('\x1b') || input.includes('\x9b') ? stripAnsi(input) : input;
    return SIMPLE.test(text) && !ZERO_WIDTH.test(text) ? text.length : stringWidth(input, options);
  };
}

/** The grapheme clusters of simple text: one per character, except CR LF, one cluster (UAX #29, GB3). */
class SimpleGraphemes implements Intl.Segments {
  constructor(private readonly input: string) {}

  containing(codeUnitIndex?: number): Intl.SegmentData | undefined {
    const at = Math.trunc(Number(codeUnitIndex)) || 0;
    const text = this.input;
    if (at < 0 || at >= text.length) return undefined;
    const start = at > 0 && text[at] === '\n' && text[at - 1] === '\r' ? at - 1 : at;
    return this.data(start);
  }

  *[Symbol.iterator](): IterableIterator<Intl.SegmentData> {
    for (let at = 0; at < this.input.length;) {
      const data = this.data(at);
      yield data;
      at += data.segment.length;
    }
  }

  private data(start: number): Intl.SegmentData {
    const text = this.input;
    const length = text[start] === '\r' && text[start + 1] === '\n' ? 2 : 1;
    return { segment: text.slice(start, start + length), index: start, input: text };
  }
}

/** What `new Intl.Segmenter(locales, options)` makes, created only when text beyond the simple set comes. */
export function lazySegmenter(...args: SegmenterArgs): Intl.Segmenter {
  let real: Intl.Segmenter | undefined;
  const get = (): Intl.Segmenter => (real ??= new Intl.Segmenter(...args));
  const graphemes = (args[1]?.granularity ?? 'grapheme') === 'grapheme';
  return {
    segment: (input: string) => {
      const text = String(input);
      return graphemes && SIMPLE.test(text) ? new SimpleGraphemes(text) : get().segment(text);
    },
    resolvedOptions: () => get().resolvedOptions(),
  };
}

/** A regular expression compiled on first use (test, exec, and as an argument of match, search, ...). */
export function lazyRegExp(source: string, flags: string): RegExp {
  let real: RegExp | undefined;
  const get = (): RegExp => (real ??= new RegExp(source, flags));
  const lazy = {
    source,
    flags,
    // No string of simple characters is an RGI emoji: the answer needs no emoji set.
    test: (text: string) => (source === RGI_EMOJI && SIMPLE.test(String(text)) ? false : get().test(text)),
    exec: (text: string) => get().exec(text),
    get lastIndex() {
      return get().lastIndex;
    },
    set lastIndex(value: number) {
      get().lastIndex = value;
    },
    [Symbol.match]: (text: string) => get()[Symbol.match](text),
    [Symbol.matchAll]: (text: string) => get()[Symbol.matchAll](text),
    [Symbol.search]: (text: string) => get()[Symbol.search](text),
    [Symbol.split]: (text: string, limit?: number) => get()[Symbol.split](text, limit),
    [Symbol.replace]: (text: string, replacement: string) => get()[Symbol.replace](text, replacement),
  };
  return lazy as unknown as RegExp;
}
