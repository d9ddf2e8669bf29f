// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain of the Ink
// script's code cache: about 125 M instructions a start; with the Unicode stand-ins 3.04x -> 2.10x.
// The build's half of cli/launch/code-cache.ts: names a built classic script's V8 code cache in the
// script's last line (`//# voiceCache=<name>-<hash of the script>.cache`) and has a child process
// (a clean V8) make that cache beside it. The Ink and Vite scripts both use it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Appends the cache's name to `script`, then runs `maker` (code for `node -e`) with `args` and the
 * cache's path last. Returns the cache's path, or an error text (the script then runs without a
 * cache until the CLI makes one in the user's folder).
 */
export function makeCodeCache({ root, script, name, maker, args = [], env = {} }) {
  const text = readFileSync(script);
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const cache = join(dirname(script), `${name}-${hash}.cache`);
  appendFileSync(script, `${text.at(-1) === 0x0a ? '' : '\n'}//# voiceCache=${name}-${hash}.cache\n`);
  const result = spawnSync(process.execPath, ['-e', maker, ...args, cache], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env, NODE_OPTIONS: undefined } });
  if (result.status === 0) return { cache };
  return {
    error: `${name}: no code cache (${
      result.stderr
        .trim()
        .split('\n')
        .find((line) => /Error/.test(line)) ?? result.stderr.trim()
    })`,
  };
}
