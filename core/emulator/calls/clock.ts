// A call's simulated clock. It starts at the wall clock when the call is created and moves only
// by what the call does: each pause advances it by exactly its simulated length (taking 1/speed of
// that in real time), so a call's timeline is the same at any speed and under any machine load. A
// call that lasts 40 simulated seconds takes 0.8 s at `--speed 50`, and its timestamps say 40 s.
// While it is held (the call waits for the developer's server) it advances by the real time the
// wait took: a 300 ms answer costs the call 300 ms, whatever the speed.

/** A simulated clock for one call, running `speed` times faster than real time. */
export class SimClock {
  protected at = Date.now();
  private holding = 0;

  constructor(readonly speed = 1) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
  }

  /** Simulated epoch milliseconds. */
  now(): number {
    return this.at;
  }

  /** Simulated time as ISO text. */
  iso(): string {
    return new Date(this.at).toISOString();
  }

  /** Waits `ms` simulated milliseconds (ms/speed real ones); when aborted, advances by the part that passed. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    const t0 = performance.now();
    return new Promise((resolve) => {
      const finish = (passed: number): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        this.at += passed;
        resolve();
      };
      const abort = (): void => finish(Math.min(ms, (performance.now() - t0) * this.speed));
      const timer = setTimeout(() => finish(ms), ms / this.speed);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Waits for `work`; the clock advances by the real time it took (once, however deeply holds nest). */
  async hold<T>(work: Promise<T>): Promise<T> {
    // A model turn is held as a whole and holds its tool deliveries inside: counting both would count twice.
    const outer = this.holding++ === 0;
    const t0 = performance.now();
    try {
      return await work;
    } finally {
      this.holding--;
      if (outer) this.at += performance.now() - t0;
    }
  }
}
