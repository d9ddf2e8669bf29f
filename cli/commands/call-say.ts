// `voice call say <id> "text"`: speaks as the customer on a live call of a running `voice dev`
// (the emulator's own say endpoint); the assistant answers as it would a caller's words.
import { sayPath } from '#core/emulator/control/paths';
import { Command } from 'commander';
import { contextOf } from '../context.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { err, out } from '../redact.js';
import { localFlags } from '#core/hosts';

/** The `voice call say` command (added under `voice call`). */
export function callSayCommand(): Command {
  return new Command('say')
    .description('Speak as the customer on a live call of `voice dev`: the text is their next turn, and the assistant answers')
    .argument('<id>', 'call id (of a running call)')
    .argument('<text...>', 'what the customer says')
    .addHelpText(
      'after',
      `
Only the local emulator (\`voice dev\`) takes lines from outside a call; follow the answer with
\`voice call watch <id>\`. The first line makes the call yours: the scripted customer says nothing
more, and the call ends when you end it or after 30 s (simulated) without a line. Exits 1 when the
call is not running.

Examples:
  $ voice --local call say <id> "I'd like to move my appointment to Tuesday"
  $ voice --local call say <id> Yes, 3pm works`,
    )
    .action(async (id: string, words: string[], _o: unknown, cmd: Command) => {
      const text = words.join(' ').trim();
      if (!text) throw usageError('Say something: voice call say <id> "text"');
      const ctx = contextOf(cmd);
      const s = ctx.settings();
      const base = s.baseUrl.replace(/\/+$/, '');
      let res: Response;
      try {
        res = await fetch(`${base}${sayPath(id)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${s.apiKey ?? 'any-key'}` },
          body: JSON.stringify({ text }),
        });
      } catch {
        throw new CliError(`Nothing answers at ${base}.`, ExitCode.Failure, 'Start the emulator with `voice dev`, and point at it with --local or --api-url.');
      }
      const body = (await res.json().catch(() => ({}))) as { message?: unknown };
      const why = typeof body.message === 'string' ? body.message : JSON.stringify(body.message ?? body);
      if (res.status === 404 && why === 'Call not found') throw new CliError(`No call ${id} on ${base}.`, ExitCode.Failure, `List calls with: voice call list ${localFlags(base)}`);
      if (res.status === 404 || res.status === 405)
        throw new CliError(
          `${base} is not a voice emulator: only \`voice dev\` takes customer lines from outside a call.`,
          ExitCode.Failure,
          'Point at a running `voice dev` with --local or --api-url.',
        );
      if (res.status === 401) throw new CliError('The emulator refused the key.', ExitCode.Auth, 'Pass the key it was started with: --api-key KEY or VOICE_API_KEY.');
      if (res.status === 409) throw new CliError(`Call ${id}: ${why}`, ExitCode.Failure);
      if (!res.ok) throw new CliError(`The emulator refused the line: HTTP ${res.status} ${why}`);
      if (ctx.output.mode === 'json') out(`${JSON.stringify({ callId: id, text })}\n`);
      else err(`The customer says on call ${id}: ${text}\n  Follow the answer: voice call watch ${id} ${localFlags(base)}\n`);
    });
}
