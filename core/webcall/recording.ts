// The video recording of one call: when it was asked for and when it started, the
// `video-recording-started` stage's progress, the first-message cue, and stopping it once.
import { serializeError, StageFailure } from './errors.js';
import type { CallStartProgressEvent, CallTransport, Clock } from './types.js';

/** What a recording needs from the session that owns it. */
export interface RecordingHost {
  clock: Clock;
  /** Whether the session is closed (nothing is reported then). */
  closed(): boolean;
  /** Whether the start has succeeded (a recording error then no longer fails it). */
  started(): boolean;
  transport(): CallTransport | null;
  progress(stage: string, status: CallStartProgressEvent['status'], duration?: number, metadata?: Record<string, unknown>): void;
  send(data: string): void;
  interrupt(reason: unknown): void;
}

/** Tracks one call's video recording from request to stop. */
export class Recording {
  /** Whether the call records video (the created call's artifact plan). */
  enabled = false;
  /** When the recording was asked for (join, or the client's own start). */
  requestedAt = 0;
  private startedAt: number | null = null;
  private watchStart: number | null = null;
  private stopped = false;

  constructor(private readonly host: RecordingHost) {}

  /** Reports `video-recording-started` when the recording starts, then lets the assistant speak. */
  watch(): void {
    this.watchStart = this.host.clock.now();
    this.host.progress('video-recording-started', 'started');
    if (this.startedAt !== null) this.reportStarted();
  }

  /** The media layer says the recording started. */
  onStarted(): void {
    if (this.startedAt !== null) return;
    this.startedAt = this.host.clock.now();
    this.reportStarted();
  }

  /** The media layer says the recording failed. */
  onError(payload: unknown): void {
    if (this.watchStart === null) return;
    this.host.progress('video-recording-started', 'failed', this.host.clock.now() - this.watchStart, { error: serializeError(payload).message });
    this.watchStart = null;
    // While the start runs, the stage fails the start like any other (call-start-failed,
    // start-method-error, cleanup). Once the call is active it goes on, as in the platform SDK,
    // which documents retrying with startRecording() after a recording-error: ending a live
    // conversation because its recording did not start would lose the call, not the recording.
    if (!this.host.started()) this.host.interrupt(new StageFailure('video-recording-started', payload));
  }

  /** Stops waiting for the start: a closed session reports nothing more. */
  unwatch(): void {
    this.watchStart = null;
  }

  /** Stops the recording once (no-op when none runs). */
  stop(): void {
    const transport = this.host.transport();
    if (!this.enabled || this.stopped || !transport) return;
    this.stopped = true;
    try {
      transport.stopRecording();
    } catch {
      // Already stopped with the meeting.
    }
  }

  private reportStarted(): void {
    const began = this.watchStart;
    if (began === null || this.host.closed()) return;
    this.watchStart = null;
    // Measured to when the recording started, which can precede this stage (token recordings).
    const delaySeconds = ((this.startedAt ?? this.host.clock.now()) - this.requestedAt) / 1000;
    this.host.progress('video-recording-started', 'completed', this.host.clock.now() - began, { delaySeconds });
    this.host.send(JSON.stringify({ type: 'control', control: 'say-first-message', videoRecordingStartDelaySeconds: delaySeconds }));
  }
}
