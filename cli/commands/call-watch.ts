// `voice call watch <id>`: follows one call live. Thin: parse flags, pick the emulator's stream
// or polling, print each event as a line (terminal, plain or JSON lines), exit 0 when it ends.
import { Command } from 'commander';
import { ApiError } from '../../core/client/index.js';
import { CliError, ExitCode } from '../errors.js';
import { contextOf } from '../context.js';
import { err } from '../redact.js';
import { dim, yellow } from '../output/style.js';
import { secondsFlag } from '../webhook/flags.js';
import { printLine } from '../webhook/lines.js';
import { turnsOf, watchLine } from '../webhook/watch-events.js';
import type { Seen, WatchEvent } from '../webhook/watch-events.js';
import { streamCall } from '../webhook/watch-stream.js';
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
      const getCall = async (callId: string): Promise<Record<string, unknown>> => (await client.call.get(callId)) as unknown as Record<string, unknown>;
      const poll = (seen?: Seen): Promise<void> =>
        pollCall(id, getCall, {
          intervalMs: opts.interval * 1000,
          maxIntervalMs: Math.max(opts.interval * 1000, 8000),
          maxFailures: 6,
          onEvent: show,
          onRetry: (message) => err(yellow(`Warning: ${message}\n`)),
        }, seen);
      // The first read says whether the call exists (404: exit 1) and whether it already ended.
      const first = await getCall(id).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) throw new CliError(`No call ${id} to follow: the API answered 404.`, ExitCode.Failure, 'Check the id with `voice call list`, and the API URL (`--local` for `voice dev`).');
        throw error;
      });
      if (opts.poll || first.status === 'ended') return poll();
      const s = ctx.settings();
      const how = await streamCall(id, { baseUrl: s.baseUrl, headers: s.apiKey ? { authorization: `Bearer ${s.apiKey}` } : {}, onEvent: show, getCall });
      if (how === 'ended') return;
      if (how === 'lost') {
        err(yellow('Warning: the live stream broke off; polling instead.\n'));
        const now = await getCall(id);
        return poll({ ...(typeof now.status === 'string' ? { status: now.status } : {}), turns: turnsOf(now).length });
      }
      return poll();
    });
}
