// How long this process was held up (a busy event loop, or the machine not scheduling it) while a
// latency was measured: a latency test allows that much on top of its 30 ms, since a stall between
// a server's write and the emulator's read is the scheduler's, not the server's. On a quiet
// machine the stall is a few ms and the test is as strict as its 30 ms.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Starts watching; `stop()` gives the longest stall seen, in ms. */
export function watchStalls(): { stop(): number } {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  return {
    stop: () => {
      h.disable();
      // The histogram counts the delay past the resolution's own interval.
      return Math.max(0, h.max / 1e6 - 5);
    },
  };
}

/**
 * Prints a latency test's measure beside the server's own wait and the stall allowed on top of the
 * 30 ms (and appends it as a JSON line to the file `VOICE_LATENCY_LOG` names), so the numbers of
 * a quiet machine can be stated from runs, not from the tolerance.
 */
export function reportLatency(name: string, measuredMs: number, serverMs: number, stalledMs: number): void {
  const line = { name, measuredMs, serverMs: Math.round(serverMs * 10) / 10, differenceMs: Math.round((measuredMs - serverMs) * 10) / 10, stalledMs: Math.round(stalledMs * 10) / 10 };
  console.log(`${name}: measured ${measuredMs} ms, the server waited ${line.serverMs} ms (${line.differenceMs} ms apart; allowed 30 ms + ${line.stalledMs} ms of stalls)`);
  if (process.env.VOICE_LATENCY_LOG) appendFileSync(process.env.VOICE_LATENCY_LOG, `${JSON.stringify(line)}\n`);
}
