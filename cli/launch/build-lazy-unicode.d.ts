// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain: the emoji
// regex (181 M instructions) and the first Intl.Segmenter (92 M) deferred; with the Ink code cache 3.04x -> 2.10x.
// Types of cli/launch/build-lazy-unicode.js (plain JS so `node scripts/build.js` runs as is).
import type { Plugin } from 'esbuild';

/** One module's source with its costly constructions made lazy; undefined when it has none. */
export function lazyUnicodeSource(text: string): string | undefined;

/** The esbuild plugin; `helper` is the absolute path of cli/launch/lazy-unicode.ts. */
export function lazyUnicode(helper: string): Plugin;
