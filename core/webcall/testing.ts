// Test doubles for the web-call client: a scripted transport, a fake browser environment and a
// fake `POST /call/web`. Exported as a separate module so production bundles never include it.
import type { DailyAdvancedConfig, DailyFactoryOptions } from './daily-transport.js';
import type {
  BoostedMicrophone, CallStartProgressEvent, CallTransport, FatalErrorReport, RecordingOptions, TransportEvent, TransportFactory,
  TransportParticipant, TransportRequest, WebCallEnvironment, WebCallEventName, WebCallOptions,
} from './types.js';
import { WebCall } from './webcall.js';

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
    if (this.destroyed) throw new Error('destroyed during join');
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
      if (!last) throw new Error('No transport was created.');
      return last;
    },
  };
}

/** A fake media track that remembers whether it was stopped. */
export function fakeTrack(kind: 'audio' | 'video' = 'audio'): MediaStreamTrack & { stopped: boolean } {
  const track = { kind, stopped: false, stop: () => void (track.stopped = true) };
  return track as unknown as MediaStreamTrack & { stopped: boolean };
}

/** A browser environment without a browser: counts elements, tracks and audio contexts still held. */
export class FakeEnvironment implements WebCallEnvironment {
  agent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0';
  touchPoints = 0;
  microphoneRequests = 0;
  denyMicrophone: Error | null = null;
  playFailure: Error | null = null;
  /** Lets a test hold createAudioPlayer until it resolves this promise. */
  playGate: Promise<void> | null = null;
  readonly elements = new Set<HTMLAudioElement>();
  readonly tracks = new Set<MediaStreamTrack & { stopped: boolean }>();
  openAudioContexts = 0;

  userAgent(): string {
    return this.agent;
  }

  maxTouchPoints(): number {
    return this.touchPoints;
  }

  async requestMicrophone(): Promise<void> {
    this.microphoneRequests++;
    if (this.denyMicrophone) throw this.denyMicrophone;
  }

  async createAudioPlayer(track: MediaStreamTrack, participantId: string, volume: number | null): Promise<HTMLAudioElement> {
    if (this.playGate) await this.playGate;
    if (this.playFailure) throw this.playFailure;
    const player = { dataset: { participantId }, volume: volume ?? 1, srcObject: track } as unknown as HTMLAudioElement;
    this.elements.add(player);
    return player;
  }

  removeAudioPlayer(player: HTMLAudioElement): void {
    this.elements.delete(player);
  }

  async boostMicrophone(): Promise<BoostedMicrophone> {
    const mic = fakeTrack();
    const boosted = fakeTrack();
    this.tracks.add(mic);
    this.tracks.add(boosted);
    this.openAudioContexts++;
    let released = false;
    return {
      track: boosted,
      release: () => {
        if (released) return;
        released = true;
        mic.stop();
        boosted.stop();
        this.tracks.delete(mic);
        this.tracks.delete(boosted);
        this.openAudioContexts--;
      },
    };
  }
}

/** A fake fetch answering `POST /call/web`; records each request and answers with `respond`. */
export function fakeWebCallApi(respond: (body: Record<string, unknown>, count: number) => Response | Promise<Response> = () => jsonResponse(201, webCallBody())) {
  const requests: Array<{ url: string; headers: Record<string, string>; body: Record<string, unknown> }> = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    requests.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) }, body });
    const response = respond(body, requests.length);
    const signal = init?.signal;
    if (!signal) return response;
    return new Promise<Response>((resolve, reject) => {
      if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
      Promise.resolve(response).then(resolve, reject);
    });
  }) as typeof fetch;
  return { fetch: fetchImpl, requests };
}

/** A created web call as the platform returns it. */
export function webCallBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'call-1', type: 'webCall', webCallUrl: 'https://vapi.daily.co/room-1', assistant: { voice: { provider: '11labs' } }, ...fields };
}

/** A JSON Response. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Every event name a WebCall emits. */
export const EVENT_NAMES: WebCallEventName[] = [
  'call-start', 'call-end', 'speech-start', 'speech-end', 'volume-level', 'local-volume-level', 'local-audio-level-observer-error',
  'message', 'error', 'camera-error', 'video', 'audio', 'network-quality-change', 'network-connection', 'daily-participant-updated',
  'call-start-progress', 'call-start-success', 'call-start-failed', 'recording-started', 'recording-stopped', 'recording-stats',
  'recording-error', 'recording-upload-completed', 'state',
];

/** One emitted event. */
export interface RecordedEvent {
  name: WebCallEventName;
  args: unknown[];
}

/** Records every event a WebCall emits, in order. */
export function recordEvents(call: WebCall): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  for (const name of EVENT_NAMES) call.on(name, ((...args: unknown[]) => events.push({ name, args })) as never);
  return events;
}

/** Options of harness(). */
export interface HarnessOptions {
  script?: Script;
  create?: (request: TransportRequest) => Promise<void> | void;
  respond?: Parameters<typeof fakeWebCallApi>[0];
  env?: FakeEnvironment;
  options?: Partial<WebCallOptions>;
  baseUrl?: string;
  callConfig?: DailyAdvancedConfig;
  callObjectOptions?: DailyFactoryOptions;
  record?: boolean;
}

/** A WebCall wired to a scripted transport, a fake environment and a fake API, with its events recorded. */
export function harness(setup: HarnessOptions = {}) {
  const env = setup.env ?? new FakeEnvironment();
  const transports = scriptedTransports(setup.script, setup.create);
  const api = fakeWebCallApi(setup.respond);
  const reports: FatalErrorReport[] = [];
  const call = new WebCall('public-key', setup.baseUrl ?? 'http://127.0.0.1:9/api', setup.callConfig, setup.callObjectOptions, {
    fetch: api.fetch,
    transport: transports.factory,
    environment: env,
    reportError: (report) => reports.push(report),
    ...setup.options,
  });
  const events = setup.record === false ? [] : recordEvents(call);
  const named = (name: WebCallEventName) => events.filter((event) => event.name === name).map((event) => event.args[0]);
  return {
    call, env, transports, api, reports, events, named,
    /** `stage:status` of every progress event. */
    stages: () => (named('call-start-progress') as CallStartProgressEvent[]).map((event) => `${event.stage}:${event.status}`),
    names: () => events.map((event) => event.name),
  };
}
