// `voice call say <id> "text"`: speaks as the customer on a live call of a running `voice dev`
// (the emulator's own say endpoint); the assistant answers as it would a caller's words. With
// sound the line can talk over the assistant (`--after-seconds`, `--after-words`) and pause mid-
// sentence (`[0.8s]`), and `--dtmf` presses keys.
import { sayPath } from '#core/emulator/control/paths';
import { Command, InvalidArgumentError } from 'commander';
import { contextOf } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { err, out } from '../../redact.js';
import { localFlags } from '#core/hosts';

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected seconds, 0 or more (e.g. 1.5).');
  return n;
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of words, 1 or more (e.g. 3).');
  return n;
}

function keys(value: string): string {
  if (!/^[0-9*#A-D]+$/i.test(value)) throw new InvalidArgumentError('expected keypad keys: digits, * and # (A-D too), e.g. 1234#.');
  return value;
}

interface SayOptions {
  dtmf?: string;
  afterSeconds?: number;
  afterWords?: number;
}

/** The request body for the options and words given; a usage error for a combination that cannot work. */
function bodyOf(words: string[], o: SayOptions): Record<string, unknown> {
  const text = words.join(' ').trim();
  if (o.dtmf !== undefined) {
    if (text || o.afterSeconds !== undefined || o.afterWords !== undefined)
      throw usageError('--dtmf presses keys on its own: give no text and no --after-* with it.', 'e.g. voice call say <id> --dtmf 1234#');
    return { dtmf: o.dtmf };
  }
  if (!text) throw usageError('Say something: voice call say <id> "text" (or press keys with --dtmf 12#)');
  if (o.afterSeconds !== undefined && o.afterWords !== undefined) throw usageError('Give --after-seconds or --after-words, not both.');
  return { text, ...(o.afterSeconds !== undefined ? { afterSeconds: o.afterSeconds } : {}), ...(o.afterWords !== undefined ? { afterWords: o.afterWords } : {}) };
}

/** The `voice call say` command (added under `voice call`). */
export function callSayCommand(): Command {
  return new Command('say')
    .description('Speak as the customer on a live call of `voice dev`: the text is their next turn, and the assistant answers')
    .argument('<id>', 'call id (of a running call)')
    .argument('[text...]', 'what the customer says ([0.8s] pauses mid-sentence)')
    .option('--dtmf <keys>', 'press keys instead of speaking (e.g. 1234#): their tones are heard, and keypadInputPlan makes them a turn', keys)
    .option('--after-seconds <s>', 'talk over the assistant this many seconds into its line (its line under way, else its next)', seconds)
    .option('--after-words <n>', 'talk over the assistant after this many of its words', count)
    .addHelpText(
      'after',
      `
Only the local emulator (\`voice dev\`) takes lines from outside a call; follow the answer with
\`voice call watch <id>\`. The first line makes the call yours: the scripted customer says nothing
more, and the call ends when you end it or after 30 s (simulated) without a line. Exits 1 when the
call is not running. With sound (voice dev's default), a line said while the assistant speaks is
said over it, and its stopSpeakingPlan decides whether it stops; on the text timeline a line is
always the customer's next turn.

Examples:
  $ voice --local call say <id> "I'd like to move my appointment to Tuesday"
  $ voice --local call say <id> Yes, 3pm works
  $ voice --local call say <id> "I'd like to book [0.8s] a table for two"
  $ voice --local call say <id> --after-words 3 "Sorry, wrong day"
  $ voice --local call say <id> --dtmf 1234#`,
    )
    .action(async (id: string, words: string[], o: SayOptions, cmd: Command) => {
      const body = bodyOf(words, o);
      const ctx = contextOf(cmd);
      const s = ctx.settings();
      const base = s.baseUrl.replace(/\/+$/, '');
      let res: Response;
      try {
        res = await fetch(`${base}${sayPath(id)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${s.apiKey ?? 'any-key'}` },
          body: JSON.stringify(body),
        });
      } catch {
        throw new CliError(`Nothing answers at ${base}.`, ExitCode.Failure, 'Start the emulator with `voice dev`, and point at it with --local or --api-url.');
      }
      const answer = (await res.json().catch(() => ({}))) as { message?: unknown };
      const why = typeof answer.message === 'string' ? answer.message : JSON.stringify(answer.message ?? answer);
      if (res.status === 404 && why === 'Call not found') throw new CliError(`No call ${id} on ${base}.`, ExitCode.Failure, `List calls with: voice call list ${localFlags(base)}`);
      if (res.status === 404 || res.status === 405)
        throw new CliError(
          `${base} is not a voice emulator: only \`voice dev\` takes customer lines from outside a call.`,
          ExitCode.Failure,
          'Point at a running `voice dev` with --local or --api-url.',
        );
      if (res.status === 401) throw new CliError('The emulator refused the key.', ExitCode.Auth, 'Pass the key it was started with: --api-key KEY or VOICE_API_KEY.');
      if (res.status === 409) throw new CliError(`Call ${id}: ${why}`, ExitCode.Failure);
      if (res.status === 400) throw usageError(`The emulator refused the line: ${why}`);
      if (!res.ok) throw new CliError(`The emulator refused the line: HTTP ${res.status} ${why}`);
      if (ctx.output.mode === 'json') out(`${JSON.stringify({ callId: id, ...body })}\n`);
      else
        err(`${body.dtmf ? `The customer presses ${String(body.dtmf)}` : `The customer says: ${String(body.text)}`} (call ${id})\n  Follow the answer: voice call watch ${id} ${localFlags(base)}\n`);
    });
}
