// Types of scripts/build-fresh.js (plain JS so `node scripts/build.js` runs as is).

/** One output of each build, relative to the repository root. */
export const BUILD_OUTPUTS: readonly string[];

/** True when every output exists and is newer than every source it is built from. */
export function buildIsFresh(root: string): boolean;
