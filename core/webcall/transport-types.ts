// The seam between a WebCall and its media layer: what a transport (Daily's call object, the
// emulator's local transport, a scripted one in tests) offers, the events it reports, and how one
// is created for a call.
import type { DailyAdvancedConfig, DailyFactoryOptions } from './daily-types.js';

/** Daily events passed on unchanged (payload as Daily sends it). */
export type PassThroughEvent = 'network-quality-change' | 'network-connection' | 'recording-started' | 'recording-stopped' | 'recording-stats' | 'recording-error' | 'recording-upload-completed';

/** A remote or local participant as the transport describes it. */
export interface TransportParticipant {
  sessionId: string;
  userName: string;
  local: boolean;
  raw?: unknown;
}

/** Everything a transport reports while a call object exists. */
export type TransportEvent =
  | { type: 'app-message'; data: unknown }
  | { type: 'track-started'; participant: TransportParticipant; track: MediaStreamTrack }
  | { type: 'participant-joined'; participant: TransportParticipant }
  | { type: 'participant-left'; participant: TransportParticipant }
  | { type: 'participant-updated'; participant: TransportParticipant }
  | { type: 'left' }
  | { type: 'fatal-error'; error: unknown }
  | { type: 'nonfatal-error'; error: { type?: string; [field: string]: unknown } }
  | { type: 'camera-error'; error: unknown }
  | { type: 'local-audio-level'; level: number }
  | { type: 'pass-through'; name: PassThroughEvent; payload: unknown };

/** Cloud recording settings sent when the client starts a video recording. */
export interface RecordingOptions {
  width: number;
  height: number;
  backgroundColor: string;
  layout: { preset: 'default' };
}

/** The media layer of one call: the Daily call object in production, a script in tests. */
export interface CallTransport {
  /** Joins the room; rejects when the join fails. */
  join(options: { url: string; token?: string }): Promise<void>;
  /** Leaves the room (resolves once left). */
  leave(): Promise<void>;
  /** Releases the call object, its listeners and its media. */
  destroy(): Promise<void>;
  /** Subscribes to transport events; returns the unsubscribe function. */
  subscribe(listener: (event: TransportEvent) => void): () => void;
  sendAppMessage(data: string): void;
  setLocalAudio(enabled: boolean): void;
  localAudio(): boolean;
  /** Receives a remote participant's tracks (tracks are not received automatically). */
  receive(sessionId: string, tracks: { audio: boolean; video: boolean }): void;
  startRemoteAudioLevelObserver(intervalMs: number): Promise<void>;
  /** Latest audio level per remote participant, 0 to 1. */
  remoteAudioLevels(): Record<string, number>;
  setNoiseCancellation(enabled: boolean): Promise<void>;
  startRecording(options: RecordingOptions): void;
  stopRecording(): void;
  setInputDevices(options: {
    audioDeviceId?: string | false | null;
    audioSource?: MediaStreamTrack | false;
    videoDeviceId?: string | false | null;
    videoSource?: MediaStreamTrack | false;
  }): Promise<void>;
  setOutputDevice(options: { outputDeviceId: string }): Promise<void>;
  startLocalAudioLevelObserver(intervalMs?: number): Promise<void>;
  stopLocalAudioLevelObserver(): void;
  isLocalAudioLevelObserverRunning(): boolean;
  localAudioLevel(): number;
  startScreenShare(options: { displayMediaOptions?: DisplayMediaStreamOptions; screenVideoSendSettings?: unknown }): void;
  stopScreenShare(): void;
  /** The underlying call object (a DailyCall for the Daily transport). */
  raw(): unknown;
}

/** What a transport factory needs to create one call object. */
export interface TransportRequest {
  /** The call's `webCallUrl`: a Daily room, or an emulator's web call (see local-protocol.ts). */
  url: string;
  audioSource: string | boolean | MediaStreamTrack;
  videoSource: string | boolean | MediaStreamTrack;
  callObjectOptions: DailyFactoryOptions;
  dailyConfig: DailyAdvancedConfig;
}

/** Creates the transport for one call (asynchronously: the media library is loaded on demand). */
export type TransportFactory = (request: TransportRequest) => Promise<CallTransport>;
