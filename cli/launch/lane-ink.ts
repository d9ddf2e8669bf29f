// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain of the Ink
// script's code cache: about 125 M instructions a start; with the Unicode stand-ins 3.04x -> 2.10x.
// The fast lane's way to the Ink views: the Ink script, run from its V8 code cache by
// cli/launch/ink-load.ts. The lane's build puts this module where the full CLI's output code imports
// ../launch/ink-load.js (cli/launch/build-lane.js), so it loads only when a table is drawn.
import { loadScript } from './ink-load.js';
import type { Ui } from './ink-load.js';
import { inkScript } from './lane-ink-script.js';

/** The views, from the Ink script. */
export function loadInk(): Promise<Ui> {
  return loadScript(inkScript());
}
