// A bounded closed-loop load generator: `concurrency` workers each send the next request as soon
// as the previous one is answered, for a fixed time or a fixed count, whichever comes first.

/** One request; resolves when the response has been fully read. */
export type Send = (i: number) => Promise<unknown>;

/** What one load run measured. */
export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  /** Per-request latencies in ms (only when asked for). */
  latencies: number[];
}

/** Options for one load run. */
export interface LoadOptions {
  concurrency: number;
  durationMs: number;
  maxRequests: number;
  recordLatency?: boolean;
}

/** Runs `send` in a closed loop; any failed request fails the run (a benchmark of errors is meaningless). */
export async function load(send: Send, options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let issued = 0;
  let done = 0;
  const start = performance.now();
  const deadline = start + options.durationMs;
  const worker = async (): Promise<void> => {
    while (issued < options.maxRequests && performance.now() < deadline) {
      const i = issued++;
      const t0 = performance.now();
      await send(i);
      if (options.recordLatency) latencies.push(performance.now() - t0);
      done++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  return { requests: done, seconds, perSecond: done / seconds, latencies };
}
