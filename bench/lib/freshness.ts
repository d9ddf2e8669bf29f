// Guards against measuring a stale build: the CLI benchmarks run dist/, which `npm run build` makes.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir: string, depth = 0): number {
  if (!existsSync(dir) || depth > 6) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && (entry.name === 'dist' || entry.name === 'node_modules')) continue;
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, depth + 1));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.includes('.test.')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Checks that the built CLI exists; returns a caveat when sources under cli/ or core/ are newer
 * than it (the figures then describe the previous build).
 */
export function checkCliBuild(root: string): string | undefined {
  const built = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(built)) throw new Error('dist/cli/main.js is missing: run `npm run build` first');
  const builtAt = statSync(built).mtimeMs;
  const sourcesAt = Math.max(newestMtime(join(root, 'cli')), newestMtime(join(root, 'core')));
  return sourcesAt > builtAt ? 'dist/ is older than the sources under cli/ or core/: run `npm run build` for current figures' : undefined;
}
