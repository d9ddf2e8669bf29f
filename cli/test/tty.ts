// Runs the CLI on a pseudo-terminal (util-linux `script`), so stdout and stdin are TTYs.
import { execa } from 'execa';
import { join } from 'node:path';
import { ROOT } from './build.js';
import { captured } from './harness.js';
import type { Run } from './harness.js';

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `voice args` on a pseudo-terminal of the given width; `input` is typed into it. */
export async function voiceTty(env: Record<string, string>, args: readonly string[], opts: { input?: string; columns?: number } = {}): Promise<Run> {
  const cmd = `stty cols ${opts.columns ?? 120} rows 50 2>/dev/null; ${quote(process.execPath)} ${quote(join(ROOT, 'bin', 'voice.js'))} ${args.map(quote).join(' ')}`;
  const r = await execa('script', ['-qec', cmd, '/dev/null'], { env: { TERM: 'xterm-256color', ...env }, extendEnv: false, reject: false, input: opts.input ?? '', timeout: 20_000, stripFinalNewline: false });
  const run = { exitCode: r.exitCode ?? -1, stdout: String(r.stdout).replace(/\r\n/g, '\n'), stderr: String(r.stderr) };
  captured.push(run.stdout, run.stderr);
  return run;
}

/** Removes ANSI escape sequences. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}
