// Fitting cells into a terminal: display width, truncation with an ellipsis, padding.

/** Display width of a string, counting wide (CJK, emoji) characters as two columns. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x20 || (cp >= 0x300 && cp < 0x370) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) continue;
    w +=
      cp >= 0x1100 &&
      (cp <= 0x115f ||
        (cp >= 0x2e80 && cp <= 0xa4cf) ||
        (cp >= 0xac00 && cp <= 0xd7a3) ||
        (cp >= 0xf900 && cp <= 0xfaff) ||
        (cp >= 0xfe30 && cp <= 0xfe4f) ||
        (cp >= 0xff00 && cp <= 0xff60) ||
        (cp >= 0xffe0 && cp <= 0xffe6) ||
        (cp >= 0x1f300 && cp <= 0x1faff) ||
        (cp >= 0x20000 && cp <= 0x3fffd))
        ? 2
        : 1;
  }
  return w;
}

/** Cuts a text to a display width, ending with `…` when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  let outText = '';
  let w = 0;
  for (const ch of text) {
    const cw = displayWidth(ch);
    if (w + cw > width - 1) break;
    outText += ch;
    w += cw;
  }
  return `${outText}…`;
}

/** Pads a text with spaces to a display width. */
export function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * Column widths that fit a total width: natural widths, the widest shrunk first, never the `keep`
 * column (an id cut short is of no use). When even that cannot fit, the last columns other than
 * `keep` are left out (their width is 0).
 */
export function fitWidths(natural: readonly number[], total: number, gap = 2, min = 4, keep = -1): number[] {
  const widths = [...natural];
  const shown = widths.map(() => true);
  const sumOf = (): number => widths.reduce((a, b, i) => a + (shown[i] ? b : 0), 0) + gap * Math.max(0, shown.filter(Boolean).length - 1);
  let sum = sumOf();
  while (sum > total) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) if (i !== keep && shown[i] && (widths[i] as number) > min && (widest < 0 || (widths[i] as number) > (widths[widest] as number))) widest = i;
    if (widest < 0) break;
    widths[widest] = (widths[widest] as number) - 1;
    sum -= 1;
  }
  for (let i = widths.length - 1; i >= 0 && sum > total; i--) {
    if (i === keep) continue;
    shown[i] = false;
    sum = sumOf();
  }
  return widths.map((w, i) => (shown[i] ? w : 0));
}
