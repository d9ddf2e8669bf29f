// Test doubles for the web-call client: a scripted transport, a fake browser environment and a
// fake `POST /call/web`. Exported as a separate module so production bundles never include it.
import type { DailyAdvancedConfig, DailyFactoryOptions } from './daily-types.js';
import { fakeTrack, scriptedTransports } from './scripted-transport.js';
import type { Script } from './scripted-transport.js';
import type { BoostedMicrophone, CallStartProgressEvent, FatalErrorReport, TransportRequest, WebCallEnvironment, WebCallEventName, WebCallOptions } from './types.js';
import { WebCall } from './webcall.js';

export { fakeTrack, ScriptedTransport, ScriptedTransportError, scriptedTransports } from './scripted-transport.js';
export type { Script } from './scripted-transport.js';

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
  'call-start',
  'call-end',
  'speech-start',
  'speech-end',
  'volume-level',
  'local-volume-level',
  'local-audio-level-observer-error',
  'message',
  'error',
  'camera-error',
  'video',
  'audio',
  'network-quality-change',
  'network-connection',
  'daily-participant-updated',
  'call-start-progress',
  'call-start-success',
  'call-start-failed',
  'recording-started',
  'recording-stopped',
  'recording-stats',
  'recording-error',
  'recording-upload-completed',
  'state',
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
    call,
    env,
    transports,
    api,
    reports,
    events,
    named,
    /** `stage:status` of every progress event. */
    stages: () => (named('call-start-progress') as CallStartProgressEvent[]).map((event) => `${event.stage}:${event.status}`),
    names: () => events.map((event) => event.name),
  };
}
