// One call attempt, from start to cleanup: owns the transport and timers, holds the remote media
// (remote-media.ts), the recording (recording.ts) and the microphone (microphone.ts), turns
// transport events into WebCall events, and releases everything once.
import type { Emitter } from './emitter.js';
import { isFatalCameraError, serializeError, webCallError } from './errors.js';
import { Microphone } from './microphone.js';
import { Recording } from './recording.js';
import { RemoteMedia } from './remote-media.js';
import type { CallStartProgressEvent, CallTransport, Clock, TransportEvent, TransportFactory, TransportRequest, WebCallEnvironment, WebCallError, WebCallEvents, WebCallResponse } from './types.js';
import { VoiceError } from '../errors.js';

export { SPEAKER } from './remote-media.js';

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
export const STOPPED = new VoiceError('The call was stopped.');

const noop = () => {};

/** One call attempt and everything it holds. */
export class Session {
  transport: CallTransport | null = null;
  call: WebCallResponse | null = null;
  stage = '';
  closed = false;
  joined = false;
  receiveVideo = false;
  /** True once the start pipeline has succeeded (the call is active). */
  started = false;
  readonly abort = new AbortController();
  private readonly interruption: Promise<never>;
  private interruptWith: (reason: unknown) => void = noop;
  private readonly timers = new Set<unknown>();
  /** The assistant's audio and video, its levels and speech. */
  readonly media: RemoteMedia;
  /** The user's microphone: mute, boost, audio-processor recovery. */
  readonly microphone: Microphone;
  private unsubscribe: () => void = noop;
  private endedStatusSeen = false;
  private callEndEmitted = false;
  private closing: Promise<void> | null = null;
  /** The call's video recording. */
  readonly recording: Recording;

  constructor(readonly host: SessionHost) {
    this.interruption = new Promise<never>((_, reject) => (this.interruptWith = reject));
    this.interruption.catch(noop);
    this.media = new RemoteMedia({
      events: host.events,
      clock: host.clock,
      env: host.env,
      volume: host.volume,
      transport: () => this.transport,
      send: (data) => this.send(data),
      emitError: (error) => this.emitError(error),
    });
    this.microphone = new Microphone({ env: host.env, closed: () => this.closed, transport: () => this.transport, emitError: (error) => this.emitError(error) });
    this.recording = new Recording({
      clock: host.clock,
      closed: () => this.closed,
      started: () => this.started,
      transport: () => this.transport,
      progress: (...args) => this.progress(...args),
      send: (data) => this.send(data),
      interrupt: (reason) => this.interrupt(reason),
    });
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
    if (!this.transport) throw new VoiceError('Call object is not available.');
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
    if (!this.closed) this.media.observeLevels();
  }

  /** Sends an app message once joined; before that Daily would throw 'only supported after join'. */
  send(data: string): void {
    if (this.transport && this.joined && !this.closed) this.transport.sendAppMessage(data);
  }

  /** Mutes or unmutes the microphone; throws without a transport. */
  setMuted(muted: boolean): void {
    this.microphone.setMuted(this.transportOrThrow(), muted);
  }

  setVolume(volume: number): void {
    this.media.players.setVolume(volume);
  }

  private handle(event: TransportEvent): void {
    if (this.closed && event.type !== 'left') return;
    const emit = this.host.events.emit.bind(this.host.events);
    switch (event.type) {
      case 'app-message':
        return this.message(event.data);
      case 'track-started':
        return void this.media.trackStarted(event.participant, event.track);
      case 'participant-joined':
        if (!event.participant.local) this.transport?.receive(event.participant.sessionId, { audio: true, video: this.receiveVideo });
        return;
      case 'participant-left':
        return this.media.players.remove(event.participant.sessionId);
      case 'participant-updated':
        emit('daily-participant-updated', event.participant.raw as never);
        return;
      case 'left':
        this.emitCallEnd();
        this.recording.stop();
        if (!this.closed) this.host.ended(this, new VoiceError('The meeting ended before the call started.'));
        return;
      case 'fatal-error':
        this.emitError({ type: 'daily-error', error: serializeError(event.error) });
        // Before joining, the start failure that follows is what gets reported.
        if (this.joined) this.host.report('daily-error', undefined, event.error);
        this.recording.stop();
        return this.host.ended(this, event.error);
      case 'nonfatal-error':
        if (event.error.type === 'audio-processor-error') this.microphone.recoverAudioProcessor();
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
        if (event.name === 'recording-started') this.recording.onStarted();
        if (event.name === 'recording-error') this.recording.onError(event.payload);
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

  private emitCallEnd(): void {
    if (!this.joined || this.callEndEmitted) return;
    this.callEndEmitted = true;
    this.host.events.emit('call-end');
    if (!this.endedStatusSeen) {
      this.endedStatusSeen = true;
      this.host.events.emit('message', { type: 'status-update', status: 'ended', endedReason: 'customer-ended-call' });
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
    this.recording.unwatch();
    // Silence at once.
    this.media.close();
    const transport = this.transport;
    if (transport) {
      this.recording.stop();
      if (this.joined) await this.bounded(transport.leave());
      this.emitCallEnd();
      this.unsubscribe();
      await this.bounded(transport.destroy());
    }
    this.microphone.release();
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
