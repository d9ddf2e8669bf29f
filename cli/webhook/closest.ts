// Ranks known words by closeness to what was typed, for "unknown X: did you mean" lists.

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j] as number;
      row[j] = Math.min(up + 1, (row[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length] as number;
}

/** Every word of `known`, closest to `typed` first (words containing it first, then by edit distance). */
export function closestFirst(typed: string, known: readonly string[]): string[] {
  const t = typed.toLowerCase();
  const score = (w: string): number => {
    const l = w.toLowerCase();
    // A name that contains what was typed (a prefix, a word) beats any edit distance.
    if (t.length >= 3 && (l.includes(t) || t.includes(l))) return -1 + Math.abs(l.length - t.length) / 100;
    return distance(t, l);
  };
  return known
    .map((w, i) => ({ w, s: score(w), i }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.w);
}
