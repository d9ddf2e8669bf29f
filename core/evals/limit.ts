// At most N tasks at once, first come first served: the org's simulation concurrency.

/** Runs tasks with at most `size` in flight. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** @param size tasks allowed at once (at least 1). */
  constructor(public readonly size: number) {}

  /** Tasks running now. */
  get running(): number {
    return this.active;
  }

  /** Runs `task` when a place is free;. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= Math.max(1, this.size)) await new Promise<void>((go) => this.waiting.push(go));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
