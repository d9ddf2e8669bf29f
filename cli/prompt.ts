// Questions asked on a terminal. Without one (or with --no-input) nothing is asked: the caller
// gets a refusal naming the flag to pass instead.
import { CliError, Declined, ExitCode, usageError } from './errors.js';
import { err } from './redact.js';

/** Whether a person can answer: stdin and stderr are terminals and --no-input was not given. */
export function canPrompt(input: boolean | undefined): boolean {
  return input !== false && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY);
}

function interrupted(): CliError {
  return new CliError('Interrupted', ExitCode.Interrupted);
}

/** Reads one line with the keys typed shown as `*`, or plain when `mask` is false. */
export function readLine(question: string, mask: boolean): Promise<string> {
  const stdin = process.stdin;
  // Raw mode (no echo) before the question appears, so keys typed at the prompt never echo.
  const wasRaw = stdin.isRaw;
  stdin.setRawMode?.(true);
  err(question);
  return new Promise((resolve, reject) => {
    let value = '';
    stdin.setEncoding('utf8');
    stdin.resume();
    const done = (fn: () => void): void => {
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(wasRaw);
      stdin.pause();
      err('\n');
      fn();
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\u0003') return done(() => reject(interrupted()));
        if (ch === '\u0004' && value === '') return done(() => reject(interrupted()));
        if (ch === '\r' || ch === '\n') return done(() => resolve(value));
        if (ch === '\u007f' || ch === '\b') {
          if (value.length) {
            value = value.slice(0, -1);
            err('\b \b');
          }
        } else if (ch >= ' ') {
          value += ch;
          process.stderr.write(mask ? '*' : ch);
        }
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * Asks to confirm a destructive action; refuses (exit 2, naming --yes) when nobody can answer, and
 * exits 2 quietly when the answer is no. Returns normally only when confirmed.
 */
export async function confirmOrRefuse(what: string, opts: { yes?: boolean; input?: boolean }): Promise<void> {
  if (opts.yes) return;
  if (!canPrompt(opts.input)) {
    throw usageError(
      `Refusing to ${what} without confirmation: pass --yes to confirm.`,
      opts.input === false ? '--no-input turns prompts into refusals.' : 'No terminal to ask on (stdin or stderr is not a TTY).',
    );
  }
  const answer = (await readLine(`${what[0]?.toUpperCase()}${what.slice(1)}? Type y to confirm: `, false)).trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes') throw new Declined();
}
