// Types of scripts/build-config.js (plain JS so `node scripts/build.js` runs as is).
import type { BuildOptions } from 'esbuild';

/** The banner that gives bundled CommonJS code a `require` for Node built-ins. */
export const requireShim: string;

/** esbuild options of core's Node emulator bundle (core/dist/emulator.js). */
export function emulatorBuild(root: string, corePkg: { version: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }): BuildOptions & { metafile: true };

/** Optional native add-ons `ws` requires inside a try/catch: left as imports, never dependencies. */
export const OPTIONAL_NATIVE: readonly string[];
