// Lazy stand-ins for the Unicode machinery Ink's text helpers (string-width, slice-ansi,
// @alcalzone/ansi-tokenize) create when their modules load. The build swaps them in
// (scripts/lazy-unicode.js). On Node 20 the first Intl.Segmenter costs about 90 M CPU instructions
// (V8 builds its list of locales) and /^\p{RGI_Emoji}$/v about 180 M (ICU builds the set of emoji
// strings): together more than a whole `node -e 0`, paid by every table drawn, although a table of
// plain ASCII text needs neither. Here the segmenter splits ASCII text itself and the real objects
// are made on first need, so results are the same and only text that needs them pays for them.

type SegmenterArgs = ConstructorParameters<typeof Intl.Segmenter>;

const ASCII = /^[\0-\x7f]*$/;

/** The grapheme clusters of ASCII text: one per character, except CR LF, one cluster (UAX #29, GB3). */
class AsciiGraphemes implements Intl.Segments {
  constructor(private readonly input: string) {}

  containing(codeUnitIndex?: number): Intl.SegmentData | undefined {
    const at = Math.trunc(Number(codeUnitIndex)) || 0;
    const text = this.input;
    if (at < 0 || at >= text.length) return undefined;
    const start = at > 0 && text[at] === '\n' && text[at - 1] === '\r' ? at - 1 : at;
    return this.data(start);
  }

  *[Symbol.iterator](): IterableIterator<Intl.SegmentData> {
    for (let at = 0; at < this.input.length; ) {
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

/** What `new Intl.Segmenter(locales, options)` makes, created only when non-ASCII text comes. */
export function lazySegmenter(...args: SegmenterArgs): Intl.Segmenter {
  let real: Intl.Segmenter | undefined;
  const get = (): Intl.Segmenter => (real ??= new Intl.Segmenter(...args));
  const graphemes = (args[1]?.granularity ?? 'grapheme') === 'grapheme';
  return {
    segment: (input: string) => {
      const text = String(input);
      return graphemes && ASCII.test(text) ? new AsciiGraphemes(text) : get().segment(text);
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
    test: (text: string) => get().test(text),
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
