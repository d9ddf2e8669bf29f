// `voice call watch <id>`: follows one call live. Thin: parse flags, pick the emulator's stream
// or polling, print each event as a line (terminal, plain or JSON lines), exit 0 when it ends.
import { Command } from 'commander';
import { contextOf } from '../context.js';
import { err } from '../redact.js';
import { dim, yellow } from '../output/style.js';
import { secondsFlag } from '../webhook/flags.js';
import { printLine } from '../webhook/lines.js';
import { watchLine } from '../webhook/watch-events.js';
import type { WatchEvent } from '../webhook/watch-events.js';
import { pollCall } from '../webhook/watch-poll.js';

interface WatchOptions {
  poll?: boolean;
  interval: number;
}

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
      const ctx = contextOf(cmd);
      const opts = ctx.opts as WatchOptions & typeof ctx.opts;
      ctx.requireKey();
      const show = (e: WatchEvent): void => printLine(watchLine(e), ctx.output);
      if (ctx.output.mode !== 'json') err(dim(`Following call ${id} on ${ctx.settings().baseUrl} (Ctrl-C to stop)\n`));
      const client = ctx.client();
      await pollCall(id, async (callId) => (await client.call.get(callId)) as unknown as Record<string, unknown>, {
        intervalMs: opts.interval * 1000,
        maxIntervalMs: Math.max(opts.interval * 1000, 8000),
        maxFailures: 6,
        onEvent: show,
        onRetry: (message) => err(yellow(`Warning: ${message}\n`)),
      });
    });
}
