// The body of `voice call watch`, loaded only when the command runs: the first read of the call,
// then the emulator's live stream or polling, each event printed as a line.
import type { Command } from 'commander';
import { ApiError } from 'voice-agent-core/client';
import { contextOf } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import { dim, yellow } from '../../output/style.js';
import { err } from '../../redact.js';
import { printLine } from '../../webhook/lines.js';
import { turnsOf, watchLine } from './watch-events.js';
import type { Seen, WatchEvent } from './watch-events.js';
import { pollCall } from './watch-poll.js';
import { streamCall } from './watch-stream.js';

interface WatchOptions {
  poll?: boolean;
  interval: number;
}

/** Follows call `id` until it ends; throws a CliError (exit 1) when it cannot be followed. */
export async function watchCall(id: string, cmd: Command): Promise<void> {
  const ctx = contextOf(cmd);
  const opts = ctx.opts as WatchOptions & typeof ctx.opts;
  ctx.requireKey();
  const show = (e: WatchEvent): void => printLine(watchLine(e), ctx.output);
  if (ctx.output.mode !== 'json') err(dim(`Following call ${id} on ${ctx.settings().baseUrl} (Ctrl-C to stop)\n`));
  const client = ctx.client();
  const getCall = async (callId: string): Promise<Record<string, unknown>> => (await client.call.get(callId)) as unknown as Record<string, unknown>;
  const poll = (seen?: Seen): Promise<void> =>
    pollCall(
      id,
      getCall,
      {
        intervalMs: opts.interval * 1000,
        maxIntervalMs: Math.max(opts.interval * 1000, 8000),
        maxFailures: 6,
        onEvent: show,
        onRetry: (message) => err(yellow(`Warning: ${message}\n`)),
      },
      seen,
    );
  // The first read says whether the call exists (404: exit 1) and whether it already ended.
  const first = await getCall(id).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404)
      throw new CliError(`No call ${id} to follow: the API answered 404.`, ExitCode.Failure, 'Check the id with `voice call list`, and the API URL (`--local` for `voice dev`).');
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
}
