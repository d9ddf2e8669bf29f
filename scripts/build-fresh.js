// Whether dist/ and core/dist/ hold builds of the current sources: every output exists and none is
// older than a CLI, core, inspector or audio source. Shared by `scripts/build.js --if-stale` (what
// `npm start` runs) and the test runner's global setup (cli/test/build.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** One output of each build: the CLI, core's libraries, core's emulator, the inspector page, the audio package. */
export const BUILD_OUTPUTS = ['dist/cli/main.js', 'core/dist/client.js', 'core/dist/emulator.js', 'dist/inspector/index.html', 'audio/dist/index.js', 'audio/dist/synthesis-worker.js'];

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && (entry.name === 'dist' || entry.name === 'node_modules')) continue;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|tsx|css|html)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** True when every output exists and is newer than every source it is built from. */
export function buildIsFresh(root) {
  const outputs = BUILD_OUTPUTS.map((file) => join(root, file));
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return ['cli', 'core', 'web/inspector', 'audio/src'].every((dir) => newestSource(join(root, dir)) <= built);
}
