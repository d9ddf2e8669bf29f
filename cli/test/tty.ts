// Runs the CLI on a pseudo-terminal (util-linux `script`), so stdout and stdin are TTYs.
import { execa } from 'execa';
import { join } from 'node:path';
import { ROOT } from './build.js';
import { captured } from './harness.js';
import type { Run } from './harness.js';

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `voice args` on a pseudo-terminal of the given width. `input` is typed once the output
 * shows `after` (as a person would, after the prompt appears), or at once without it.
 */
export async function voiceTty(env: Record<string, string>, args: readonly string[], opts: { input?: string; after?: string; columns?: number } = {}): Promise<Run> {
  const cmd = `stty cols ${opts.columns ?? 120} rows 50 2>/dev/null; ${quote(process.execPath)} ${quote(join(ROOT, 'bin', 'voice.js'))} ${args.map(quote).join(' ')}`;
  const child = execa('script', ['-qec', cmd, '/dev/null'], { env: { TERM: 'xterm-256color', ...env }, extendEnv: false, reject: false, timeout: 20_000, stripFinalNewline: false, stdin: 'pipe' });
  const typeInput = (): void => {
    child.stdin?.write(opts.input ?? '');
  };
  if (opts.after) {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      if (seen.includes(opts.after as string)) {
        child.stdout?.off('data', onData);
        typeInput();
      }
    };
    child.stdout?.on('data', onData);
  } else typeInput();
  const r = await child;
  const run = { exitCode: r.exitCode ?? -1, stdout: withoutSpinner(String(r.stdout).replace(/\r\n/g, '\n')), stderr: String(r.stderr) };
  captured.push(run.stdout, run.stderr);
  return run;
}

/**
 * Drops the progress spinner's frames and its clearing: it draws only when an answer takes over
 * 150 ms, which depends on how busy the machine is, so what a test compares leaves it out.
 */
export function withoutSpinner(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\u001b\[2K(?:[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^\r\n]*)?/g, '');
}

/** Removes ANSI escape sequences. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}
