// Word timings from the synthesizer's own phone timings. Flite reports when each phone of an
// utterance ends, not which word it belongs to; the phones of each word said on its own are
// aligned to the utterance's phones (edit distance), so each word spans its aligned phones.
// Where the utterance says a phone differently from the word alone (a reduced "the"), the phone
// still lands in the word the alignment puts it in; a boundary is then off by at most that phone.
import type { Segment } from './flite.js';

/** One word of the text (a whitespace-separated token, punctuation kept) and when it is said. */
export interface WordTiming {
  /** The token as written in the text. */
  word: string;
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
}

interface Phone {
  phone: string;
  start: number;
  end: number;
}

/** The tokens a text is cut into: what a transcript would keep or cut. */
export function tokensOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Whether a token is spoken at all: letters, digits or a symbol Flite reads out (a lone dash is not). */
export function isSpoken(token: string): boolean {
  return /[\p{L}\p{N}&%$@#+=]/u.test(token);
}

/** Aligns `a` to `b` (minimum edit distance); for each index of `a`, the index of `b` it matched, or -1. */
export function align(a: readonly string[], b: readonly string[]): number[] {
  const n = a.length;
  const m = b.length;
  const cost = new Int32Array((n + 1) * (m + 1));
  const at = (i: number, j: number): number => i * (m + 1) + j;
  for (let i = 0; i <= n; i++) cost[at(i, 0)] = i;
  for (let j = 0; j <= m; j++) cost[at(0, j)] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const diagonal = (cost[at(i - 1, j - 1)] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cost[at(i, j)] = Math.min(diagonal, (cost[at(i - 1, j)] as number) + 1, (cost[at(i, j - 1)] as number) + 1);
    }
  }
  const matched = new Array<number>(n).fill(-1);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const here = cost[at(i, j)] as number;
    if (here === (cost[at(i - 1, j - 1)] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)) {
      matched[i - 1] = j - 1;
      i--;
      j--;
    } else if (here === (cost[at(i - 1, j)] as number) + 1) i--;
    else j--;
  }
  return matched;
}

/**
 * Each token's start and end in the audio, from the utterance's segments and each token's own
 * phones (empty for a token that is not spoken). Tokens keep their order; a token no phone was
 * aligned to gets a zero-length span where it falls.
 */
export function wordTimings(tokens: readonly string[], segments: readonly Segment[], tokenPhones: readonly (readonly string[])[]): WordTiming[] {
  const phones: Phone[] = [];
  let previousEnd = 0;
  for (const s of segments) {
    if (s.phone !== 'pau') phones.push({ phone: s.phone, start: previousEnd, end: s.end });
    previousEnd = s.end;
  }
  const owner: number[] = [];
  const expected: string[] = [];
  tokenPhones.forEach((list, token) => {
    for (const p of list) {
      expected.push(p);
      owner.push(token);
    }
  });
  const matched = align(
    phones.map((p) => p.phone),
    expected,
  );
  // A phone the words alone do not have belongs to the word before it (or the first word).
  const tokenOf: number[] = [];
  let last = owner[0] ?? 0;
  for (const m of matched) {
    if (m >= 0) last = owner[m] as number;
    tokenOf.push(last);
  }
  const spans = tokens.map(() => ({ start: Number.POSITIVE_INFINITY, end: Number.NEGATIVE_INFINITY }));
  phones.forEach((p, k) => {
    const span = spans[tokenOf[k] as number];
    if (!span) return;
    span.start = Math.min(span.start, p.start);
    span.end = Math.max(span.end, p.end);
  });
  const timings: WordTiming[] = [];
  let cursor = 0;
  spans.forEach((span, k) => {
    const said = Number.isFinite(span.start);
    const start = said ? Math.max(span.start, cursor) : cursor;
    const end = said ? Math.max(span.end, start) : start;
    timings.push({ word: tokens[k] as string, start, end });
    cursor = end;
  });
  return timings;
}

/**
 * The words said by `time` (seconds): those whose end is at or before it, and with `reached`,
 * the word being said at that moment too ("stops at the word it had reached").
 */
export function wordsSpokenBy(words: readonly WordTiming[], time: number, options: { reached?: boolean } = {}): WordTiming[] {
  return words.filter((w) => w.end <= time || (options.reached === true && w.start < time));
}
