// Budget: `voice assistant list --json` start to exit <= 1.35x `node -e 0` (and the Ink table on a
// terminal <= 2.5x). Measured gain of the fast lane: 1.66x -> 1.24x; 698 M -> 599 M instructions (callgrind).
// Re-measured 2026-11-26, two shared cores at load average 13 to 25 (cli/launch/README.md):
// `assistant list --json` 578 M, 576 M instructions with the lane (1.15x `node -e 0`), 728 M, 736 M
// without (1.45x); the TTY table 990 M against 1,174 M and 1,156 M. Kept.
// The CLI's fast lane (dist/cli/fast.cjs), tried by bin/voice.js before the full program: it
// answers `voice --version`, plain catalogue reads (`voice assistant list --json`, piped
// `voice call get <id>`, the Ink table of `voice assistant list` on a terminal) without loading
// commander or the catalogue. It returns false for anything else, and bin/voice.js then runs the
// full CLI (dist/cli/main.js). This file only recognises the command line (with lane-args.ts); the
// read itself is a second file (dist/cli/fast-read.cjs, from lane-read.ts), so commands the lane
// does not take pay for this one alone.
import ops from 'voice:read-ops';
import { VERSION } from '#core/version';
import { parseRead } from './lane-args.js';

/** Runs argv when the fast lane can (the process then exits); false when the full CLI must. */
export async function runFast(argv: readonly string[]): Promise<boolean> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return true;
  }
  const call = parseRead(argv, ops());
  if (!call) return false;
  const { runRead } = await import('./lane-read.js');
  return runRead(call);
}
