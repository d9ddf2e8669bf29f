// Ranks known words by closeness to what was typed, for "unknown X: did you mean" lists, and
// picks the one worth suggesting (none when nothing is close).

/** Edit distance counting a swap of two neighbours as one edit (as commander's suggestions do). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => (d[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** How far `word` is from `typed`: below 0 when one contains the other, else the edit distance. */
function score(typed: string, word: string): number {
  const t = typed.toLowerCase();
  const l = word.toLowerCase();
  // A name that contains what was typed (a prefix, a word) beats any edit distance.
  if (t.length >= 3 && (l.includes(t) || t.includes(l))) return -1 + Math.abs(l.length - t.length) / 100;
  return distance(t, l);
}

/** Every word of `known`, closest to `typed` first (words containing it first, then by edit distance). */
export function closestFirst(typed: string, known: readonly string[]): string[] {
  return known
    .map((w, i) => ({ w, s: score(typed, w), i }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.w);
}

/**
 * The word of `known` worth a "did you mean", or undefined when none is close: one that contains
 * what was typed (or is contained in it), or within an edit distance of a third of its length
 * (at least 1), as commander suggests commands.
 */
export function suggestion(typed: string, known: readonly string[]): string | undefined {
  const best = closestFirst(typed, known)[0];
  if (best === undefined) return undefined;
  return score(typed, best) <= Math.max(1, Math.floor(typed.length / 3)) ? best : undefined;
}
