// Public types of the web-call client: events and their payloads and options; the transport seam
// is in transport-types.ts (re-exported here). Daily's types come from daily-types.ts, never from
// the Daily implementation, as type-only imports (erased at build).
import type { AssistantInput, AssistantOverrides, Call, Open, SquadInput, WorkflowInput } from '../catalogue/models.js';
import type {
  DailyEventObjectNetworkConnectionEvent,
  DailyEventObjectNetworkQualityEvent,
  DailyEventObjectNoPayload,
  DailyEventObjectRecordingError,
  DailyEventObjectRecordingStarted,
  DailyEventObjectRecordingStopped,
  DailyParticipant,
  DailyLoader,
} from './daily-types.js';

export type { AssistantInput, AssistantOverrides, Call, SquadInput, WorkflowInput };
import type { TransportFactory } from './transport-types.js';
export type { CallTransport, PassThroughEvent, RecordingOptions, TransportEvent, TransportFactory, TransportParticipant, TransportRequest } from './transport-types.js';

/** Lifecycle of a WebCall: one call at a time moves idle → starting → active → ending → idle. */
export type WebCallState = 'idle' | 'starting' | 'active' | 'ending';

/** Names of the start stages, in the order they run. */
export type StartStage =
  | 'initialization'
  | 'web-call-creation'
  | 'daily-call-object-creation'
  | 'mobile-permissions'
  | 'daily-call-join'
  | 'video-recording-setup'
  | 'video-recording-started'
  | 'audio-observer-setup'
  | 'audio-processing-setup';

/** Progress of one start stage (`validation` is used when a start is refused). */
export interface CallStartProgressEvent {
  stage: StartStage | 'validation' | (string & {});
  status: 'started' | 'completed' | 'failed';
  duration?: number;
  timestamp: string;
  metadata?: Record<string, unknown>;
}

/** Emitted once a start has run every stage. */
export interface CallStartSuccessEvent {
  totalDuration: number;
  callId?: string;
  timestamp: string;
}

/** Emitted when a start fails; `stage` is the stage that failed. */
export interface CallStartFailedEvent {
  stage: StartStage | (string & {});
  totalDuration: number;
  error: string;
  errorStack?: string;
  timestamp: string;
  context: Record<string, unknown>;
}

/** An error flattened into a plain, JSON-serialisable object. */
export interface SerializedError {
  message: string;
  name?: string;
  stack?: string;
  [field: string]: unknown;
}

/** Types of the `error` event (spec 8), plus runtime ones passed on from the media layer. */
export type WebCallErrorType =
  | 'validation-error'
  | 'daily-call-object-creation-error'
  | 'daily-call-join-error'
  | 'video-recording-setup-error'
  | 'audio-observer-setup-error'
  | 'audio-processing-setup-error'
  | 'start-method-error'
  | 'daily-error'
  | 'camera-error'
  | 'audio-start-failed'
  | 'audio-processor-recovery-error';

/** Payload of the `error` and `camera-error` events. */
export interface WebCallError {
  type: WebCallErrorType | (string & {});
  stage?: string;
  error: SerializedError;
  timestamp: string;
  duration?: number;
  totalDuration?: number;
  context?: Record<string, unknown>;
  /**
   * True when the error ends the call (the client has stopped it, or is stopping it); false when
   * the call goes on and the error is only worth logging. Decided in one place: `isFatalErrorType`.
   */
  fatal: boolean;
}

/**
 * A message from the assistant side (transcript, status-update, tool calls...). Typed `any`, as
 * in the platform SDK, so existing handlers that read arbitrary fields keep compiling.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type InCallMessage = any;

/** Listener signatures for every event a WebCall emits. */
export interface WebCallEvents {
  'call-start': () => void;
  'call-end': () => void;
  'speech-start': () => void;
  'speech-end': () => void;
  'volume-level': (volume: number) => void;
  'local-volume-level': (volume: number) => void;
  'local-audio-level-observer-error': (error: SerializedError) => void;
  message: (message: InCallMessage) => void;
  error: (error: WebCallError) => void;
  'camera-error': (error: WebCallError) => void;
  video: (track: MediaStreamTrack) => void;
  audio: (player: HTMLAudioElement) => void;
  'network-quality-change': (event: DailyEventObjectNetworkQualityEvent) => void;
  'network-connection': (event: DailyEventObjectNetworkConnectionEvent) => void;
  'daily-participant-updated': (participant: DailyParticipant) => void;
  'call-start-progress': (event: CallStartProgressEvent) => void;
  'call-start-success': (event: CallStartSuccessEvent) => void;
  'call-start-failed': (event: CallStartFailedEvent) => void;
  'recording-started': (event: DailyEventObjectRecordingStarted) => void;
  'recording-stopped': (event: DailyEventObjectRecordingStopped) => void;
  'recording-stats': (event: DailyEventObjectNoPayload) => void;
  'recording-error': (event: DailyEventObjectRecordingError) => void;
  'recording-upload-completed': (event: DailyEventObjectNoPayload) => void;
  state: (state: WebCallState, previous: WebCallState) => void;
}

/** Name of any event a WebCall emits. */
export type WebCallEventName = keyof WebCallEvents;

/** Time source and timers; injected so tests can run on a fake clock. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** A microphone track with a gain applied, and how to release it. */
export interface BoostedMicrophone {
  track: MediaStreamTrack;
  release(): void;
}

/** The browser facilities a WebCall touches, injectable for tests. */
export interface WebCallEnvironment {
  userAgent(): string;
  maxTouchPoints(): number;
  /** Asks for microphone permission and releases the tracks at once. */
  requestMicrophone(): Promise<void>;
  /** Creates, attaches and starts an audio element playing the track. */
  createAudioPlayer(track: MediaStreamTrack, participantId: string, volume: number | null): Promise<HTMLAudioElement>;
  /** Stops and detaches an audio element created by createAudioPlayer. */
  removeAudioPlayer(player: HTMLAudioElement): void;
  boostMicrophone(gain: number): Promise<BoostedMicrophone>;
}

/** A fatal error as handed to the reporter: `name`, `data` and token fields are removed. */
export interface FatalErrorReport {
  type: string;
  stage?: string;
  message: string;
  error: Record<string, unknown>;
  context?: Record<string, unknown>;
  timestamp: string;
}

/** Options beyond the platform SDK's constructor arguments. */
export interface WebCallOptions {
  /** fetch used for `POST /call/web` (default: the global fetch). */
  fetch?: typeof fetch;
  /** Loads daily-js; replace to serve it from your own origin or a vendored copy. */
  loadDaily?: DailyLoader;
  /** Replaces the media transport entirely (tests, other media stacks). */
  transport?: TransportFactory;
  /** Receives fatal errors with sensitive fields removed (wire Sentry here). */
  reportError?: (report: FatalErrorReport) => void;
  /** Noise cancellation on the microphone (default true). */
  noiseCancellation?: boolean;
  clock?: Clock;
  environment?: WebCallEnvironment;
}

/**
 * Inline targets for start(): the catalogue's types, or any object (so values typed with the
 * platform SDK's DTOs compile unchanged; the platform validates the body).
 */
export type InlineAssistant = AssistantInput | object;
/** An inline squad for start(). */
export type InlineSquad = SquadInput | object;
/** An inline workflow for start(). */
export type InlineWorkflow = WorkflowInput | object;
/** Per-call assistant overrides for start(). */
export type StartAssistantOverrides = AssistantOverrides | object;
/** Per-call workflow overrides for start(). */
export type StartWorkflowOverrides = Open | object;

/** The optional sixth argument of start(), as in the platform SDK. */
export interface StartCallOptions {
  roomDeleteOnUserLeaveEnabled?: boolean;
}

/** The call returned by `POST /call/web`, with the fields the client reads. */
export interface WebCallResponse extends Call {
  webCallUrl?: string;
  transport?: Open & { callUrl?: string; callToken?: string };
}

/** A web call to rejoin with reconnect(). */
export interface ReconnectWebCall {
  webCallUrl: string;
  id?: string;
  artifactPlan?: { videoRecordingEnabled?: boolean };
  assistant?: { voice?: { provider?: string } };
  transport?: { callToken?: string };
}

/** Out-of-band messages the client sends during a call (Live Call Control). */
export type ClientMessage =
  | { type: 'end-call' }
  | { type: 'add-message'; message: { role: string; content: string; [field: string]: unknown }; triggerResponseEnabled?: boolean }
  | { type: 'control'; control: 'mute-assistant' | 'unmute-assistant' | 'say-first-message'; videoRecordingStartDelaySeconds?: number }
  | { type: 'say'; message: string; endCallAfterSpoken?: boolean; interruptionsEnabled?: boolean; interruptAssistantEnabled?: boolean };
