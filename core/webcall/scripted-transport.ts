// A scripted CallTransport for tests: records every call, emits what the test tells it to, and
// lets any method be replaced (a join that fails, hangs or takes 250 ms).
import type { CallTransport, RecordingOptions, TransportEvent, TransportFactory, TransportParticipant, TransportRequest } from './types.js';
import { VoiceError } from '../errors.js';

/** What the scripted transports throw: a join the test destroyed meanwhile, or a transport asked for before any was made. */
export class ScriptedTransportError extends VoiceError {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptedTransportError';
  }
}

/** Overrides for any transport method (e.g. a join that fails or takes 250 ms). */
export type Script = { [K in keyof CallTransport]?: (...args: Parameters<CallTransport[K]>) => ReturnType<CallTransport[K]> };

/** A CallTransport that records what it was asked and emits what the test tells it to. */
export class ScriptedTransport implements CallTransport {
  readonly calls: Array<{ method: string; args: unknown[] }> = [];
  readonly listeners = new Set<(event: TransportEvent) => void>();
  readonly sent: string[] = [];
  joined = false;
  destroyed = false;
  audio = true;
  levels: Record<string, number> = {};
  recordings: RecordingOptions[] = [];
  recordingStops = 0;
  noiseCancellation: boolean | null = null;

  constructor(
    readonly request: TransportRequest,
    private readonly script: Script = {},
  ) {}

  /** Delivers a transport event to the client. */
  emit(event: TransportEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Delivers an app message (a string or an object, as Daily would). */
  message(data: unknown): void {
    this.emit({ type: 'app-message', data });
  }

  /** Delivers a remote participant's track. */
  track(kind: 'audio' | 'video', participant: Partial<TransportParticipant> = {}): MediaStreamTrack {
    const track = fakeTrack(kind);
    this.emit({ type: 'track-started', track, participant: { sessionId: 'speaker-1', userName: 'Vapi Speaker', local: false, ...participant } });
    return track;
  }

  /** Whether the call counts as live (joined and not torn down). */
  get live(): boolean {
    return this.joined && !this.destroyed;
  }

  private record(method: string, args: unknown[]): void {
    this.calls.push({ method, args });
  }

  /** Names of the methods called, in order. */
  methods(): string[] {
    return this.calls.map((call) => call.method);
  }

  async join(options: { url: string; token?: string }): Promise<void> {
    this.record('join', [options]);
    await this.script.join?.(options);
    if (this.destroyed) throw new ScriptedTransportError('destroyed during join');
    this.joined = true;
  }

  async leave(): Promise<void> {
    this.record('leave', []);
    await this.script.leave?.();
    const wasJoined = this.joined;
    this.joined = false;
    await Promise.resolve();
    if (wasJoined) this.emit({ type: 'left' });
  }

  async destroy(): Promise<void> {
    this.record('destroy', []);
    if (this.joined) await this.leave();
    this.destroyed = true;
    this.listeners.clear();
    await this.script.destroy?.();
  }

  subscribe(listener: (event: TransportEvent) => void): () => void {
    this.record('subscribe', []);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sendAppMessage(data: string): void {
    this.record('sendAppMessage', [data]);
    this.script.sendAppMessage?.(data);
    this.sent.push(data);
  }

  setLocalAudio(enabled: boolean): void {
    this.record('setLocalAudio', [enabled]);
    this.audio = enabled;
  }

  localAudio(): boolean {
    return this.audio;
  }

  receive(sessionId: string, tracks: { audio: boolean; video: boolean }): void {
    this.record('receive', [sessionId, tracks]);
  }

  async startRemoteAudioLevelObserver(intervalMs: number): Promise<void> {
    this.record('startRemoteAudioLevelObserver', [intervalMs]);
    await this.script.startRemoteAudioLevelObserver?.(intervalMs);
  }

  remoteAudioLevels(): Record<string, number> {
    return this.levels;
  }

  async setNoiseCancellation(enabled: boolean): Promise<void> {
    this.record('setNoiseCancellation', [enabled]);
    await this.script.setNoiseCancellation?.(enabled);
    this.noiseCancellation = enabled;
  }

  startRecording(options: RecordingOptions): void {
    this.record('startRecording', [options]);
    this.script.startRecording?.(options);
    this.recordings.push(options);
  }

  stopRecording(): void {
    this.record('stopRecording', []);
    this.recordingStops++;
  }

  async setInputDevices(options: Parameters<CallTransport['setInputDevices']>[0]): Promise<void> {
    this.record('setInputDevices', [options]);
    await this.script.setInputDevices?.(options);
  }

  async setOutputDevice(options: { outputDeviceId: string }): Promise<void> {
    this.record('setOutputDevice', [options]);
  }

  async startLocalAudioLevelObserver(intervalMs?: number): Promise<void> {
    this.record('startLocalAudioLevelObserver', [intervalMs]);
  }

  stopLocalAudioLevelObserver(): void {
    this.record('stopLocalAudioLevelObserver', []);
  }

  isLocalAudioLevelObserverRunning(): boolean {
    return this.methods().includes('startLocalAudioLevelObserver');
  }

  localAudioLevel(): number {
    return 0.5;
  }

  startScreenShare(options: unknown): void {
    this.record('startScreenShare', [options]);
  }

  stopScreenShare(): void {
    this.record('stopScreenShare', []);
  }

  raw(): unknown {
    return this;
  }
}

/** A factory of scripted transports that remembers every transport it made. */
export function scriptedTransports(script: Script = {}, create?: (request: TransportRequest) => Promise<void> | void) {
  const transports: ScriptedTransport[] = [];
  const factory: TransportFactory = async (request) => {
    await create?.(request);
    const transport = new ScriptedTransport(request, script);
    transports.push(transport);
    return transport;
  };
  return {
    factory,
    transports,
    /** The transports currently joined and not destroyed. */
    live: () => transports.filter((transport) => transport.live),
    /** The most recent transport. */
    get last(): ScriptedTransport {
      const last = transports[transports.length - 1];
      if (!last) throw new ScriptedTransportError('No transport was created.');
      return last;
    },
  };
}

/** A fake media track that remembers whether it was stopped. */
export function fakeTrack(kind: 'audio' | 'video' = 'audio'): MediaStreamTrack & { stopped: boolean } {
  const track = { kind, stopped: false, stop: () => void (track.stopped = true) };
  return track as unknown as MediaStreamTrack & { stopped: boolean };
}
