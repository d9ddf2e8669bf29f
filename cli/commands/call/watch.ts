// `voice call watch <id>`: follows one call live. Thin: parse flags, pick the emulator's stream
// or polling, print each event as a line (terminal, plain or JSON lines), exit 0 when it ends.
import { Command } from 'commander';
import { secondsFlag } from '../../webhook/flags.js';

/** The `voice call watch` command (added under `voice call`). */
export function callWatchCommand(): Command {
  return new Command('watch')
    .description('Follow one call live: status, transcript, tool calls and results, then how it ended')
    .argument('<id>', 'call id')
    .option('--poll', "poll GET /call/{id} even when the emulator's live stream is available")
    .option('--interval <seconds>', 'shortest time between polls (it grows while nothing changes)', secondsFlag, 1)
    .addHelpText(
      'after',
      `
Against \`voice dev\` it follows the emulator's live stream; against the hosted platform it polls
GET /call/{id}, backing off while nothing changes. Exits 0 when the call ends, 1 when it cannot
be followed (unknown id, the API keeps failing).

Examples:
  $ voice call watch <id>
  $ voice --local call watch <id> --json | jq -r 'select(.event=="transcript") | .text'
  $ voice call watch <id> --interval 2`,
    )
    .action(async (id: string, _o: unknown, cmd: Command) => {
      // The follower (client, stream, polling) loads only when the command runs.
      await (await import('./watch-run.js')).watchCall(id, cmd);
    });
}
