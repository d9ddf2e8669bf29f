// Colour for messages on stderr: only on a terminal, never with NO_COLOR, TERM=dumb or --no-color.

let enabled = false;

/** Turns stderr colour on or off for this run. */
export function setErrColor(on: boolean): void {
  enabled = on;
}

function wrap(open: number, close: number): (text: string) => string {
  return (text) => (enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text);
}

/** Red, for errors. */
export const red = wrap(31, 39);
/** Yellow, for warnings. */
export const yellow = wrap(33, 39);
/** Green, for success. */
export const green = wrap(32, 39);
/** Dim, for secondary text. */
export const dim = wrap(2, 22);
/** Bold. */
export const bold = wrap(1, 22);
