// The simulated clock: it starts at the wall clock and runs `speed` times faster, so a call
// that lasts 40 simulated seconds takes 0.8 s at `--speed 50`, and its timestamps say 40 s.

/** A clock running `speed` times faster than the wall clock. */
export class SimClock {
  private readonly wallStart = Date.now();
  private readonly perfStart = performance.now();

  constructor(readonly speed = 1) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
  }

  /** Simulated epoch milliseconds. */
  now(): number {
    return this.wallStart + (performance.now() - this.perfStart) * this.speed;
  }

  /** Simulated time as ISO text. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Resolves after `ms` simulated milliseconds (or at once when aborted). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms / this.speed);
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
