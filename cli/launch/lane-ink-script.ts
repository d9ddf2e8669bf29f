// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain of the Ink
// script's code cache: about 125 M instructions a start; with the Unicode stand-ins 3.04x -> 2.10x.
// Where the fast lane finds the Ink script (dist/cli/chunks/ink-script.js, beside the lane's own
// files in dist/cli; CommonJS gives __dirname). Apart from ink.ts so that a JSON read loads none of
// the Ink loader.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The Ink script of this build. */
export const inkScript = (): string => join(__dirname, 'chunks', 'ink-script.js');

/** True when the Ink script is there to draw with (else the full CLI draws: its ES module views). */
export const canDraw = (): boolean => existsSync(inkScript());
