// The Daily implementation of CallTransport. The only module that touches @daily-co/daily-js,
// and only through import() when a call starts, so pages pay for it when they use it.
import type { DailyAdvancedConfig, DailyCall, DailyEvent, DailyFactoryOptions, DailyParticipant } from '@daily-co/daily-js';
import type { CallTransport, PassThroughEvent, TransportEvent, TransportFactory, TransportParticipant } from './transport-types.js';

import type { DailyLoader, DailyModule } from './daily-types.js';

export type * from './daily-types.js';

/** Imports the installed @daily-co/daily-js. */
export const loadDaily: DailyLoader = () => import('@daily-co/daily-js') as Promise<DailyModule>;

const PASS_THROUGH: PassThroughEvent[] = ['network-quality-change', 'network-connection', 'recording-started', 'recording-stopped', 'recording-stats', 'recording-error', 'recording-upload-completed'];

/** Drops `alwaysIncludeMicInPermissionPrompt: false`, which breaks Chrome 140+ (as the platform SDK does). */
export function safeDailyConfig(config: DailyAdvancedConfig = {}): DailyAdvancedConfig {
  if (config.alwaysIncludeMicInPermissionPrompt !== false) return { ...config };
  console.warn('[webcall] alwaysIncludeMicInPermissionPrompt:false removed (breaks Chrome 140+).');
  const { alwaysIncludeMicInPermissionPrompt: _dropped, ...rest } = config;
  return rest;
}

/** Replaces `audioSource: false`, which breaks Chrome 140+, with the default microphone. */
export function safeCallObjectOptions(options: DailyFactoryOptions = {}): DailyFactoryOptions {
  if (options.audioSource !== false) return { ...options };
  console.warn('[webcall] audioSource:false replaced by true (breaks Chrome 140+).');
  return { ...options, audioSource: true };
}

function participant(raw: DailyParticipant | null | undefined): TransportParticipant {
  return { sessionId: raw?.session_id ?? '', userName: raw?.user_name ?? '', local: raw?.local ?? false, raw };
}

/** A transport factory that loads daily-js with `load` and creates one call object per call. */
export function dailyTransportFactory(load: DailyLoader = loadDaily): TransportFactory {
  return async (request) => {
    const Daily = (await load()).default;
    const call = Daily.createCallObject({
      ...request.callObjectOptions,
      audioSource: request.audioSource,
      videoSource: request.videoSource,
      dailyConfig: { ...request.callObjectOptions.dailyConfig, ...request.dailyConfig },
    });
    call.iframe()?.style.setProperty('display', 'none');
    return new DailyTransport(call);
  };
}

/** CallTransport over one Daily call object. */
class DailyTransport implements CallTransport {
  constructor(private readonly call: DailyCall) {}

  async join(options: { url: string; token?: string }): Promise<void> {
    // Daily rejects a `token` key that is present but undefined.
    await this.call.join({ url: options.url, ...(options.token ? { token: options.token } : {}), subscribeToTracksAutomatically: false });
  }

  leave(): Promise<void> {
    return this.call.leave();
  }

  destroy(): Promise<void> {
    return this.call.destroy();
  }

  subscribe(listener: (event: TransportEvent) => void): () => void {
    type Loose = { [field: string]: unknown } | undefined;
    const handlers: Array<[DailyEvent, (event: unknown) => void]> = [];
    const on = (name: DailyEvent, map: (event: Loose) => TransportEvent | null) => {
      const handler = (event: unknown) => {
        const mapped = map(event as Loose);
        if (mapped) listener(mapped);
      };
      handlers.push([name, handler]);
      this.call.on(name, handler);
    };
    const person = (e: Loose) => participant(e?.participant as DailyParticipant | undefined);
    on('app-message', (e) => (e ? { type: 'app-message', data: e.data } : null));
    on('track-started', (e) => (e?.participant ? { type: 'track-started', participant: person(e), track: e.track as MediaStreamTrack } : null));
    on('participant-joined', (e) => (e ? { type: 'participant-joined', participant: person(e) } : null));
    on('participant-left', (e) => (e ? { type: 'participant-left', participant: person(e) } : null));
    on('participant-updated', (e) => (e ? { type: 'participant-updated', participant: person(e) } : null));
    on('left-meeting', () => ({ type: 'left' }));
    on('error', (e) => ({ type: 'fatal-error', error: e }));
    on('nonfatal-error', (e) => (e ? { type: 'nonfatal-error', error: e } : null));
    on('camera-error', (e) => ({ type: 'camera-error', error: e }));
    on('local-audio-level', (e) => (e ? { type: 'local-audio-level', level: Number(e.audioLevel) } : null));
    for (const name of PASS_THROUGH) on(name, (e) => ({ type: 'pass-through', name, payload: e }));
    return () => {
      for (const [name, handler] of handlers.splice(0)) this.call.off(name, handler);
    };
  }

  sendAppMessage(data: string): void {
    this.call.sendAppMessage(data);
  }

  setLocalAudio(enabled: boolean): void {
    // Never forceDiscardTrack: it breaks Chrome 140+.
    this.call.setLocalAudio(enabled);
  }

  localAudio(): boolean {
    return this.call.localAudio();
  }

  receive(sessionId: string, tracks: { audio: boolean; video: boolean }): void {
    this.call.updateParticipant(sessionId, { setSubscribedTracks: tracks });
  }

  startRemoteAudioLevelObserver(intervalMs: number): Promise<void> {
    return this.call.startRemoteParticipantsAudioLevelObserver(intervalMs);
  }

  remoteAudioLevels(): Record<string, number> {
    return this.call.getRemoteParticipantsAudioLevel();
  }

  async setNoiseCancellation(enabled: boolean): Promise<void> {
    await this.call.updateInputSettings({ audio: { processor: { type: enabled ? 'noise-cancellation' : 'none' } } });
  }

  startRecording(options: Parameters<DailyCall['startRecording']>[0]): void {
    this.call.startRecording(options);
  }

  stopRecording(): void {
    this.call.stopRecording();
  }

  async setInputDevices(options: Parameters<DailyCall['setInputDevicesAsync']>[0]): Promise<void> {
    await this.call.setInputDevicesAsync(options);
  }

  async setOutputDevice(options: { outputDeviceId: string }): Promise<void> {
    await this.call.setOutputDeviceAsync(options);
  }

  startLocalAudioLevelObserver(intervalMs?: number): Promise<void> {
    return this.call.startLocalAudioLevelObserver(intervalMs);
  }

  stopLocalAudioLevelObserver(): void {
    this.call.stopLocalAudioLevelObserver();
  }

  isLocalAudioLevelObserverRunning(): boolean {
    return this.call.isLocalAudioLevelObserverRunning();
  }

  localAudioLevel(): number {
    return this.call.getLocalAudioLevel();
  }

  startScreenShare(options: { displayMediaOptions?: DisplayMediaStreamOptions; screenVideoSendSettings?: unknown }): void {
    this.call.startScreenShare(options as Parameters<DailyCall['startScreenShare']>[0]);
  }

  stopScreenShare(): void {
    this.call.stopScreenShare();
  }

  raw(): DailyCall {
    return this.call;
  }
}
