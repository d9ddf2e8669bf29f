// Runs a command line the CLI or the demo page printed exactly as a user would paste it: by bash,
// with `voice` on PATH as the built CLI (bin/voice.js).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { ROOT } from './build.js';

/** Writes a `voice` command into `dir` that runs the built CLI; returns a PATH with it first. */
export function voiceOnPath(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'voice'), `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, 'bin', 'voice.js')}' "$@"\n`);
  chmodSync(join(dir, 'voice'), 0o755);
  return `${dir}:${process.env.PATH ?? '/usr/bin:/bin'}`;
}

/** Runs a printed command line in `env` (whose PATH has `voice`, see voiceOnPath), in its HOME. */
export function runPrinted(command: string, env: Record<string, string>) {
  return execa('bash', ['-c', command], { reject: false, extendEnv: false, env, timeout: 60_000, cwd: env.HOME ?? ROOT });
}
