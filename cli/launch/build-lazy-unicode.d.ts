// Types of cli/launch/build-lazy-unicode.js (plain JS so `node scripts/build.js` runs as is).
import type { Plugin } from 'esbuild';

/** One module's source with its costly constructions made lazy; undefined when it has none. */
export function lazyUnicodeSource(text: string): string | undefined;

/** The esbuild plugin; `helper` is the absolute path of cli/launch/lazy-unicode.ts. */
export function lazyUnicode(helper: string): Plugin;
