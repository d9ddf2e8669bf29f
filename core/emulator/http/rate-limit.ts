// A sliding-window limit per client: at most `max` events in any `windowMs`, with the time until
// the next one is allowed (for `Retry-After`). Small and in memory: one process, a few clients.

/** How many events one client may cause, and over how long. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/** Counts events per client key and says when a client must wait. */
export class SlidingWindowLimiter {
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records an event for `key` and returns 0, or refuses it and returns the ms to wait (nothing recorded). */
  take(key: string): number {
    const now = this.now();
    const since = now - this.limit.windowMs;
    const recent = (this.seen.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.limit.max) {
      this.seen.set(key, recent);
      return (recent[0] as number) + this.limit.windowMs - now;
    }
    recent.push(now);
    this.seen.set(key, recent);
    // Forget clients that went quiet, so the map never grows without bound.
    if (this.seen.size > 1000) for (const [k, times] of this.seen) if (!times.some((t) => t > since)) this.seen.delete(k);
    return 0;
  }
}
