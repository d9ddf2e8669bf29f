// Makes sure dist/ and core/dist/ hold builds of the current sources before process tests run:
// builds with scripts/build.js when an output is missing or older than any CLI or core source.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsFresh } from '../../scripts/build-fresh.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LOCK = join(ROOT, 'node_modules', '.cache', 'voice-cli-build.lock');
const fresh = (): boolean => buildIsFresh(ROOT);

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Builds dist/ and core/dist/ unless it is already fresh; concurrent callers wait for one build. */
export function ensureBuilt(): void {
  if (process.env.VOICE_TEST_SKIP_BUILD === '1' || fresh()) return;
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another worker is building; a lock older than two minutes is stale.
      if (waited > 120_000 || (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 120_000)) rmSync(LOCK, { recursive: true, force: true });
      sleep(200);
    }
  }
  try {
    if (fresh()) return;
    const r = spawnSync(process.execPath, ['scripts/build.js'], { cwd: ROOT, encoding: 'utf8' });
    // The type declarations step runs after the bundles; the CLI only needs the bundles.
    if (r.status !== 0 && !fresh()) throw new Error(`scripts/build.js failed:\n${r.stdout}\n${r.stderr}`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
