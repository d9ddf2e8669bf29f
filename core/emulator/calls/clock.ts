// A call's simulated clock. It starts at the wall clock when the call is created and moves only
// by what the call does: each pause advances it by exactly its simulated length (taking 1/speed of
// that in real time), so a call's timeline is the same at any speed and under any machine load. A
// call that lasts 40 simulated seconds takes 0.8 s at `--speed 50`, and its timestamps say 40 s.
// While it is held (the call waits for the developer's server) it advances by the real time the
// wait took: a 300 ms answer costs the call 300 ms, whatever the speed. The speed may change while
// calls run (`POST /__voice/speed`): each wait keeps what it has had and runs the rest at the new one.
import { VoiceError } from '../../errors.js';

/** The speed the clocks of a running emulator share; changing it live reschedules every wait under way. */
export class ClockSpeed {
  private value: number;
  private readonly listeners = new Set<() => void>();

  constructor(speed = 1) {
    this.value = checkSpeed(speed);
  }

  /** How many times faster than real time the clocks run. */
  get(): number {
    return this.value;
  }

  /** Changes the speed now: waits under way keep the simulated time they have had and run the rest at the new speed. */
  set(speed: number): void {
    this.value = checkSpeed(speed);
    for (const listener of [...this.listeners]) listener();
  }

  /** Calls `listener` after each change; returns how to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function checkSpeed(speed: number): number {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new VoiceError(`speed must be a positive number, got ${speed}`);
  return speed;
}

/** The real time a SimClock runs on: a monotonic reading in ms and timers (tests inject their own). */
export interface RealTime {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemTime: RealTime = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A simulated clock for one call, running `speed` times faster than real time. */
export class SimClock {
  protected at = Date.now();
  private holding = 0;
  private readonly pace: ClockSpeed;

  constructor(
    speed: number | ClockSpeed = 1,
    private readonly real: RealTime = systemTime,
  ) {
    this.pace = typeof speed === 'number' ? new ClockSpeed(speed) : speed;
  }

  /** How many times faster than real time it runs now. */
  get speed(): number {
    return this.pace.get();
  }

  /** Simulated epoch milliseconds. */
  now(): number {
    return this.at;
  }

  /** Simulated time as ISO text. */
  iso(): string {
    return new Date(this.at).toISOString();
  }

  /**
   * Waits `ms` simulated milliseconds (ms/speed real ones, the speed changing as it may); when
   * aborted, advances by the part that passed. However late its timer fires (a suspended process),
   * the clock advances by exactly `ms`.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    const real = this.real;
    return new Promise((resolve) => {
      // Simulated time already had before the last speed change, and the real time it changed at.
      let had = 0;
      let since = real.now();
      let rate = this.speed;
      const sofar = (): number => Math.min(ms, had + (real.now() - since) * rate);
      let timer = real.setTimeout(() => finish(ms), ms / rate);
      const finish = (passed: number): void => {
        real.clearTimeout(timer);
        stop();
        signal?.removeEventListener('abort', abort);
        this.at += passed;
        resolve();
      };
      const abort = (): void => finish(sofar());
      const stop = this.pace.onChange(() => {
        had = sofar();
        since = real.now();
        rate = this.speed;
        real.clearTimeout(timer);
        timer = real.setTimeout(() => finish(ms), (ms - had) / rate);
      });
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Waits for `work`; the clock advances by the real time it took (once, however deeply holds nest). */
  async hold<T>(work: Promise<T>): Promise<T> {
    // A model turn is held as a whole and holds its tool deliveries inside: counting both would count twice.
    const outer = this.holding++ === 0;
    const t0 = this.real.now();
    try {
      return await work;
    } finally {
      this.holding--;
      if (outer) this.at += this.real.now() - t0;
    }
  }
}

/**
 * A clock that reads the time as it passes (`speed` times real time), for a call with a live
 * party: a browser's microphone and playback happen between the call's own waits, so its time
 * cannot stand still until a wait ends as a SimClock's does. Waits run side by side freely.
 */
export class LiveClock extends SimClock {
  private origin = { at: Date.now(), real: performance.now() };

  constructor(private readonly rate: ClockSpeed) {
    super(rate);
    // A new speed counts from now: the time passed so far stays.
    rate.onChange(() => (this.origin = { at: this.now(), real: performance.now() }));
  }

  override now(): number {
    return this.origin.at + (performance.now() - this.origin.real) * this.rate.get();
  }

  override iso(): string {
    return new Date(this.now()).toISOString();
  }

  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms / this.rate.get());
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  override hold<T>(work: Promise<T>): Promise<T> {
    return work;
  }
}
