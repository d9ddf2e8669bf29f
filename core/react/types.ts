// The types of useWebCall(): its options, listeners, transcript line and the state it returns,
// apart from the hook so the code that binds a client to it (bind-client.ts) imports no hook.
import type { WebCall } from '../webcall/webcall.js';
import type {
  InlineAssistant,
  InlineSquad,
  InlineWorkflow,
  StartAssistantOverrides,
  StartWorkflowOverrides,
  WebCallError,
  WebCallEvents,
  WebCallOptions,
  WebCallResponse,
  WebCallState,
} from '../webcall/types.js';
import type { DailyAdvancedConfig, DailyFactoryOptions } from '../webcall/daily-types.js';

/** The latest line of the conversation, as the `transcript` messages carry it. */
export interface WebCallTranscript {
  role: 'assistant' | 'user' | (string & {});
  text: string;
  /** False for a partial transcript the next message replaces. */
  final: boolean;
}

/** What useWebCall() needs besides the public key. */
export interface UseWebCallOptions extends WebCallOptions {
  /** Platform API base URL: the hosted API by default, an emulator's URL to work offline. */
  baseUrl?: string;
  /** Daily's advanced config (passed through to daily-js for Daily calls). */
  callConfig?: DailyAdvancedConfig;
  /** Daily's call object options (audioSource...). */
  callObjectOptions?: DailyFactoryOptions;
}

/** Listeners for events of the call, called as they happen (the latest ones given are used). */
export type WebCallListeners = Partial<Pick<WebCallEvents, 'call-start' | 'call-end' | 'message' | 'error' | 'camera-error'>>;

/** A web call as React state, and what can be done with it. */
export interface UseWebCall {
  /** idle, starting, active or ending (`starting` from the moment start() is called). */
  state: WebCallState;
  /** True from `call-start` (the assistant listens) until the call ends. */
  listening: boolean;
  muted: boolean;
  /** The assistant's volume, 0 to 1, every 100 ms while the call runs. */
  volume: number;
  /** The latest transcript line of the current call (null when idle). */
  transcript: WebCallTranscript | null;
  /**
   * The latest fatal `error` or `camera-error` of the current call: the call is over (the hook has
   * stopped it). Non-fatal errors (`error.fatal === false`) leave the call running; they reach the
   * `error` listener and the console only.
   */
  error: WebCallError | null;
  /** Starts a call: the same arguments as WebCall's start(); resolves with the call, or null. */
  start(
    assistant?: InlineAssistant | string,
    assistantOverrides?: StartAssistantOverrides,
    squad?: InlineSquad | string,
    workflow?: InlineWorkflow | string,
    workflowOverrides?: StartWorkflowOverrides,
  ): Promise<WebCallResponse | null>;
  /** Ends the call from the customer's side (resolves once everything is released). */
  stop(): Promise<void>;
  setMuted(muted: boolean): void;
  /** The client, once a call was started (for say(), send(), events of your own...). */
  call: WebCall | null;
}
