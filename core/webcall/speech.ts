// Pure, clock-injected units turning remote audio levels into volume and speech events.
import type { Clock } from './types.js';

/** Summed level above which the assistant counts as speaking. */
export const SPEECH_THRESHOLD = 0.01;
/** Silence after the last loud sample before speech counts as ended. */
export const SPEECH_END_DELAY_MS = 1000;
/** How often remote audio levels are read. */
export const LEVEL_INTERVAL_MS = 100;
/** Summed level that maps to full volume. */
export const FULL_VOLUME_LEVEL = 0.15;

/** Sums the per-participant levels and scales them to a 0..1 volume. */
export function volumeLevel(levels: Record<string, number>): { sum: number; volume: number } {
  let sum = 0;
  for (const level of Object.values(levels)) if (Number.isFinite(level)) sum += level;
  return { sum, volume: Math.min(1, sum / FULL_VOLUME_LEVEL) };
}

/** Emits speech start on the first loud sample and speech end a fixed delay after the last. */
export class SpeechDetector {
  private timer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly onStart: () => void,
    private readonly onEnd: () => void,
  ) {}

  /** Feeds one summed level. */
  sample(sum: number): void {
    if (!(sum > SPEECH_THRESHOLD)) return;
    if (this.timer === null) this.onStart();
    else this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.onEnd();
    }, SPEECH_END_DELAY_MS);
  }

  /** Whether speech is in progress. */
  get speaking(): boolean {
    return this.timer !== null;
  }

  /** Forgets any speech in progress without emitting its end. */
  reset(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Reads levels on an interval and reports each reading. */
export class LevelObserver {
  private timer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly read: () => Record<string, number>,
    private readonly onLevels: (levels: Record<string, number>) => void,
    private readonly intervalMs = LEVEL_INTERVAL_MS,
  ) {}

  /** Starts reading (idempotent). */
  start(): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setInterval(() => {
      let levels: Record<string, number>;
      try {
        levels = this.read();
      } catch {
        return;
      }
      this.onLevels(levels);
    }, this.intervalMs);
  }

  /** Stops reading. */
  stop(): void {
    if (this.timer !== null) this.clock.clearInterval(this.timer);
    this.timer = null;
  }
}
