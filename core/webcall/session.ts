// One call attempt, from start to cleanup: owns the transport, timers, audio players and the
// boosted microphone, turns transport events into WebCall events, and releases everything once.
import type { Emitter } from './emitter.js';
import { isFatalCameraError, serializeError, StageFailure, webCallError } from './errors.js';
import { AudioPlayers } from './players.js';
import { LevelObserver, SpeechDetector, volumeLevel } from './speech.js';
import type {
  BoostedMicrophone,
  CallStartProgressEvent,
  CallTransport,
  Clock,
  TransportEvent,
  TransportFactory,
  TransportRequest,
  WebCallEnvironment,
  WebCallError,
  WebCallEvents,
  WebCallResponse,
} from './types.js';

/** Name of the participant whose audio and video are played. */
export const SPEAKER = 'Vapi Speaker';

/** What a session needs from the WebCall that owns it. */
export interface SessionHost {
  events: Emitter<WebCallEvents>;
  clock: Clock;
  env: WebCallEnvironment;
  volume(): number | null;
  report(type: string, stage: string | undefined, error: unknown, context?: Record<string, unknown>): void;
  /** The meeting ended on its own (left, or a fatal error given as `reason`). */
  ended(session: Session, reason: unknown): void;
}

/** Marks an interruption caused by stop(): not a failure. */
export const STOPPED = new Error('The call was stopped.');

const noop = () => {};

/** One call attempt and everything it holds. */
export class Session {
  transport: CallTransport | null = null;
  call: WebCallResponse | null = null;
  stage = '';
  closed = false;
  joined = false;
  recording = false;
  receiveVideo = false;
  userMuted = false;
  recordingRequestedAt = 0;
  /** True once the start pipeline has succeeded (the call is active). */
  started = false;
  readonly abort = new AbortController();
  private readonly interruption: Promise<never>;
  private interruptWith: (reason: unknown) => void = noop;
  private readonly timers = new Set<unknown>();
  readonly players: AudioPlayers;
  private boost: BoostedMicrophone | null = null;
  private unsubscribe: () => void = noop;
  private endedStatusSeen = false;
  private callEndEmitted = false;
  private recordingStopped = false;
  private recordingStartedAt: number | null = null;
  private recordingWatchStart: number | null = null;
  private closing: Promise<void> | null = null;
  private readonly speech: SpeechDetector;
  private readonly levels: LevelObserver;

  constructor(readonly host: SessionHost) {
    this.interruption = new Promise<never>((_, reject) => (this.interruptWith = reject));
    this.interruption.catch(noop);
    this.players = new AudioPlayers(host.env, host.volume);
    const emit = host.events.emit.bind(host.events);
    this.speech = new SpeechDetector(
      host.clock,
      () => emit('speech-start'),
      () => emit('speech-end'),
    );
    this.levels = new LevelObserver(
      host.clock,
      () => this.transport?.remoteAudioLevels() ?? {},
      (levels) => {
        const { sum, volume } = volumeLevel(levels);
        emit('volume-level', volume);
        this.speech.sample(sum);
      },
    );
  }

  /** Rejects whatever the start pipeline is waiting on (first reason wins). */
  interrupt(reason: unknown): void {
    this.interruptWith(reason);
  }

  /** Races a step of the start against interruption. */
  guard<T>(step: Promise<T>): Promise<T> {
    step.catch(noop);
    return Promise.race([step, this.interruption]);
  }

  /** Throws the stop marker once the session is closed. */
  checkOpen(): void {
    if (this.closed) throw STOPPED;
  }

  /** Waits on the session's clock; the timer is released on close. */
  sleep(ms: number): Promise<void> {
    return this.guard(
      new Promise<void>((resolve) => {
        const handle = this.host.clock.setTimeout(() => {
          this.timers.delete(handle);
          resolve();
        }, ms);
        this.timers.add(handle);
      }),
    );
  }

  progress(stage: string, status: CallStartProgressEvent['status'], duration?: number, metadata?: Record<string, unknown>): void {
    const event: CallStartProgressEvent = { stage, status, timestamp: this.timestamp() };
    if (duration !== undefined) event.duration = duration;
    if (metadata) event.metadata = metadata;
    this.host.events.emit('call-start-progress', event);
  }

  emitError(error: Omit<WebCallError, 'timestamp' | 'fatal'>): void {
    this.host.events.emit('error', webCallError({ ...error, timestamp: this.timestamp() }));
  }

  timestamp(): string {
    return new Date(this.host.clock.now()).toISOString();
  }

  transportOrThrow(): CallTransport {
    if (!this.transport) throw new Error('Call object is not available.');
    return this.transport;
  }

  /** Creates the transport; one that arrives after close is destroyed at once. */
  async createTransport(factory: TransportFactory, request: TransportRequest): Promise<void> {
    const transport = await factory(request);
    if (this.closed) {
      await transport.destroy().catch(noop);
      return;
    }
    this.transport = transport;
    this.unsubscribe = transport.subscribe((event) => this.handle(event));
  }

  async join(options: { url: string; token?: string }): Promise<void> {
    await this.transportOrThrow().join(options);
    this.joined = true;
  }

  /** Starts reading remote audio levels. */
  observeLevels(): void {
    // The observer's setup can finish after a stop; an interval started then would never end.
    if (!this.closed) this.levels.start();
  }

  /** Reports `video-recording-started` when the recording starts, then lets the assistant speak. */
  watchRecordingStart(): void {
    this.recordingWatchStart = this.host.clock.now();
    this.progress('video-recording-started', 'started');
    if (this.recordingStartedAt !== null) this.recordingStarted();
  }

  private recordingStarted(): void {
    const began = this.recordingWatchStart;
    if (began === null || this.closed) return;
    this.recordingWatchStart = null;
    // Measured to when the recording started, which can precede this stage (token recordings).
    const delaySeconds = ((this.recordingStartedAt ?? this.host.clock.now()) - this.recordingRequestedAt) / 1000;
    this.progress('video-recording-started', 'completed', this.host.clock.now() - began, { delaySeconds });
    this.send(JSON.stringify({ type: 'control', control: 'say-first-message', videoRecordingStartDelaySeconds: delaySeconds }));
  }

  /** Sends an app message once joined; before that Daily would throw 'only supported after join'. */
  send(data: string): void {
    if (this.transport && this.joined && !this.closed) this.transport.sendAppMessage(data);
  }

  setMuted(muted: boolean): void {
    this.transportOrThrow().setLocalAudio(!muted);
    this.userMuted = muted;
  }

  setVolume(volume: number): void {
    this.players.setVolume(volume);
  }

  /** Replaces the microphone with a boosted copy; the previous boost is released. */
  async boostMicrophone(gain: number): Promise<void> {
    const boost = await this.host.env.boostMicrophone(gain);
    if (this.closed || !this.transport) return boost.release();
    try {
      await this.transport.setInputDevices({ audioSource: boost.track });
    } catch (error) {
      boost.release();
      throw error;
    }
    this.boost?.release();
    this.boost = boost;
  }

  private handle(event: TransportEvent): void {
    if (this.closed && event.type !== 'left') return;
    const emit = this.host.events.emit.bind(this.host.events);
    switch (event.type) {
      case 'app-message':
        return this.message(event.data);
      case 'track-started':
        return void this.trackStarted(event.participant, event.track);
      case 'participant-joined':
        if (!event.participant.local) this.transport?.receive(event.participant.sessionId, { audio: true, video: this.receiveVideo });
        return;
      case 'participant-left':
        return this.players.remove(event.participant.sessionId);
      case 'participant-updated':
        emit('daily-participant-updated', event.participant.raw as never);
        return;
      case 'left':
        this.emitCallEnd();
        this.stopRecording();
        if (!this.closed) this.host.ended(this, new Error('The meeting ended before the call started.'));
        return;
      case 'fatal-error':
        this.emitError({ type: 'daily-error', error: serializeError(event.error) });
        // Before joining, the start failure that follows is what gets reported.
        if (this.joined) this.host.report('daily-error', undefined, event.error);
        this.stopRecording();
        return this.host.ended(this, event.error);
      case 'nonfatal-error':
        if (event.error.type === 'audio-processor-error') this.recoverAudioProcessor();
        if (event.error.type === 'local-audio-level-observer-error') emit('local-audio-level-observer-error', serializeError(event.error));
        return;
      case 'camera-error': {
        const error = serializeError(event.error);
        emit('camera-error', { type: 'camera-error', error, timestamp: this.timestamp(), fatal: isFatalCameraError(error) });
        return;
      }
      case 'local-audio-level':
        emit('local-volume-level', event.level);
        return;
      case 'pass-through':
        if (event.name === 'recording-started' && this.recordingStartedAt === null) {
          this.recordingStartedAt = this.host.clock.now();
          this.recordingStarted();
        }
        if (event.name === 'recording-error' && this.recordingWatchStart !== null) {
          this.progress('video-recording-started', 'failed', this.host.clock.now() - this.recordingWatchStart, { error: serializeError(event.payload).message });
          this.recordingWatchStart = null;
          // While the start runs, the stage fails the start like any other (spec 4: call-start-failed,
          // start-method-error, cleanup). Once the call is active it goes on, as in the platform SDK,
          // which documents retrying with startRecording() after a recording-error: ending a live
          // conversation because its recording did not start would lose the call, not the recording.
          if (!this.started) this.interrupt(new StageFailure('video-recording-started', event.payload));
        }
        if (event.payload) emit(event.name, event.payload as never);
    }
  }

  private message(data: unknown): void {
    if (data === 'listening') {
      this.host.events.emit('call-start');
      return;
    }
    let message: unknown = data;
    if (typeof data === 'string') {
      try {
        message = JSON.parse(data);
      } catch (error) {
        console.log('[webcall] could not parse message data:', error);
        return;
      }
    }
    const status = message as { type?: unknown; status?: unknown } | null;
    if (status && status.type === 'status-update' && status.status === 'ended') this.endedStatusSeen = true;
    this.host.events.emit('message', message);
  }

  private async trackStarted(participant: { sessionId: string; userName: string; local: boolean }, track: MediaStreamTrack): Promise<void> {
    if (participant.local || participant.userName !== SPEAKER) return;
    if (track.kind === 'video') this.host.events.emit('video', track);
    if (track.kind === 'audio') {
      let player: HTMLAudioElement | null;
      try {
        player = await this.players.add(participant.sessionId, track);
      } catch (error) {
        console.error('[webcall] could not start the assistant audio', error);
        this.emitError({ type: 'audio-start-failed', error: serializeError(error) });
        return;
      }
      if (!player) return;
      this.host.events.emit('audio', player);
    }
    this.send('playable');
  }

  private recoverAudioProcessor(): void {
    const transport = this.transport;
    if (!transport) return;
    transport
      .setNoiseCancellation(false)
      .then(() => {
        // A user who muted stays muted: only the processor's own mute is undone.
        if (!this.closed && !this.userMuted) transport.setLocalAudio(true);
      })
      .catch((error: unknown) => this.emitError({ type: 'audio-processor-recovery-error', stage: 'audio-processor-recovery', error: serializeError(error) }));
  }

  private emitCallEnd(): void {
    if (!this.joined || this.callEndEmitted) return;
    this.callEndEmitted = true;
    this.host.events.emit('call-end');
    if (!this.endedStatusSeen) {
      this.endedStatusSeen = true;
      this.host.events.emit('message', { type: 'status-update', status: 'ended', endedReason: 'customer-ended-call' });
    }
  }

  private stopRecording(): void {
    if (!this.recording || this.recordingStopped || !this.transport) return;
    this.recordingStopped = true;
    try {
      this.transport.stopRecording();
    } catch {
      // Already stopped with the meeting.
    }
  }

  /** Leaves, destroys the transport and releases every timer, player and track. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    this.interrupt(STOPPED);
    this.abort.abort();
    for (const handle of this.timers) this.host.clock.clearTimeout(handle);
    this.timers.clear();
    this.levels.stop();
    this.speech.reset();
    this.recordingWatchStart = null;
    // Silence at once; players still being built are dropped when they finish.
    this.players.close();
    const transport = this.transport;
    if (transport) {
      this.stopRecording();
      if (this.joined) await this.bounded(transport.leave());
      this.emitCallEnd();
      this.unsubscribe();
      await this.bounded(transport.destroy());
    }
    this.boost?.release();
    this.boost = null;
  }

  /** Waits for a media-layer step, but never longer than 5 s: a hung leave must not wedge stop(). */
  private bounded(step: Promise<void>): Promise<void> {
    return new Promise<void>((resolve) => {
      const handle = this.host.clock.setTimeout(resolve, 5000);
      const done = () => {
        this.host.clock.clearTimeout(handle);
        resolve();
      };
      step.then(done, done);
    });
  }
}
