// useWebCall(): a web call as React state. The web-call client, and the code that binds its events
// to the hook's state (bind-client.ts), are imported only when the first call starts (or when
// prefetchWebCall() asks), so a page pays for them when they are used.
import { useCallback, useEffect, useRef, useState } from 'react';
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

const loadWebCall = () => Promise.all([import('../webcall/index.js'), import('./bind-client.js')]);

/** Starts loading the web-call client ahead of a call (e.g. on hover); safe to call repeatedly. */
export function prefetchWebCall(): void {
  void loadWebCall().catch(() => undefined);
}

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

/**
 * Runs web calls from a component: one WebCall per mounted component, created (with the key and
 * options of that moment) when the first call starts, and stopped when the component unmounts;
 * `listeners` receive events as they happen. StrictMode safe: a start from an effect that React
 * runs, undoes and runs again ends with exactly one call.
 */
export function useWebCall(publicKey: string, options: UseWebCallOptions = {}, listeners: WebCallListeners = {}): UseWebCall {
  const [state, setState] = useState<WebCallState>('idle');
  const [listening, setListening] = useState(false);
  const [muted, setMutedState] = useState(false);
  const [volume, setVolume] = useState(0);
  const [transcript, setTranscript] = useState<WebCallTranscript | null>(null);
  const [error, setError] = useState<WebCallError | null>(null);
  const [call, setCall] = useState<WebCall | null>(null);
  const callRef = useRef<WebCall | null>(null);
  // Bumped on unmount, so a start still loading the client when React undoes the effect gives up.
  const generation = useRef(0);
  const latest = useRef({ publicKey, options, listeners });
  useEffect(() => {
    latest.current = { publicKey, options, listeners };
  });

  useEffect(() => {
    const counter = generation;
    return () => {
      counter.current++;
      const current = callRef.current;
      callRef.current = null;
      void current?.dispose();
    };
  }, []);

  const start = useCallback<UseWebCall['start']>(async (...args) => {
    const ticket = generation.current;
    setError(null);
    setTranscript(null);
    setState((now) => (now === 'idle' ? 'starting' : now));
    let modules: Awaited<ReturnType<typeof loadWebCall>>;
    try {
      modules = await loadWebCall();
    } catch (failure) {
      if (ticket === generation.current) setState(callRef.current?.state ?? 'idle');
      throw failure;
    }
    if (ticket !== generation.current) return null;
    let client = callRef.current;
    if (!client) {
      const [{ WebCall: WebCallClass }, { createClient }] = modules;
      const state = { setState, setListening, setVolume, setMuted: setMutedState, setTranscript, setError };
      client = createClient(WebCallClass, latest, (c) => callRef.current === c, state);
      callRef.current = client;
      setCall(client);
    }
    try {
      return await client.start(...args);
    } finally {
      if (callRef.current === client) setState(client.state);
    }
  }, []);

  const stop = useCallback(async () => {
    await callRef.current?.stop();
  }, []);

  const setMuted = useCallback((mute: boolean) => {
    const client = callRef.current;
    if (!client || client.state !== 'active') return;
    client.setMuted(mute);
    setMutedState(mute);
  }, []);

  return { state, listening, muted, volume, transcript, error, start, stop, setMuted, call };
}
