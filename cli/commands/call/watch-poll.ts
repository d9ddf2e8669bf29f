// Follows a call by polling GET /call/{id} (the hosted platform offers no stream): quick while
// things change, slower while nothing does, patient with passing failures, done when it ends.
import { ApiError } from 'voice-agent-core/client';
import { CliError, ExitCode } from '../../errors.js';
import { diffCall } from './watch-events.js';
import type { Seen, WatchEvent } from './watch-events.js';

/** How to poll. */
export interface PollOptions {
  /** First and shortest interval. */
  intervalMs: number;
  /** Longest interval while nothing changes. */
  maxIntervalMs: number;
  /** Consecutive failed polls before giving up. */
  maxFailures: number;
  onEvent(event: WatchEvent): void;
  /** Told about a failed poll that will be retried. */
  onRetry(message: string, waitMs: number): void;
  sleep?(ms: number): Promise<void>;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the call ends (resolves) or cannot be followed (rejects with a CliError, exit 1). */
export async function pollCall(id: string, getCall: (id: string) => Promise<Record<string, unknown>>, opts: PollOptions, seen: Seen = { turns: 0 }): Promise<void> {
  const sleep = opts.sleep ?? wait;
  let interval = opts.intervalMs;
  let failures = 0;
  for (;;) {
    let call: Record<string, unknown>;
    try {
      call = await getCall(id);
      failures = 0;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404)
        throw new CliError(`No call ${id} to follow: the API answered 404.`, ExitCode.Failure, 'Check the id with `voice call list`, and the API URL (`--local` for `voice dev`).');
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) throw error;
      failures++;
      if (failures >= opts.maxFailures) throw new CliError(`Cannot follow call ${id}: ${(error as Error).message}`, ExitCode.Failure);
      const backoff = Math.min(opts.intervalMs * 2 ** failures, opts.maxIntervalMs * 2);
      opts.onRetry(`${(error as Error).message}; trying again in ${Math.round(backoff / 1000)} s`, backoff);
      await sleep(backoff);
      continue;
    }
    const events = diffCall(seen, call);
    for (const e of events) opts.onEvent(e);
    if (seen.status === 'ended') return;
    interval = events.length ? opts.intervalMs : Math.min(interval * 1.5, opts.maxIntervalMs);
    await sleep(interval);
  }
}
