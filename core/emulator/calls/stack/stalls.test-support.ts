// How long this process was held up (a busy event loop, or the machine not scheduling it) while a
// latency was measured: a latency test allows that much on top of its 30 ms, since a stall between
// a server's write and the emulator's read is the scheduler's, not the server's. On a quiet
// machine the stall is a few ms and the test is as strict as its 30 ms.
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
