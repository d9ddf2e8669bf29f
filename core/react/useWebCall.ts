// useWebCall(): a web call as React state. The web-call client, and the code that binds its events
// to the hook's state (bind-client.ts), are imported only when the first call starts (or when
// prefetchWebCall() asks), so a page pays for them when they are used.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { WebCall } from '../webcall/webcall.js';
import type { WebCallError, WebCallState } from '../webcall/types.js';
import type { UseWebCall, UseWebCallOptions, WebCallListeners, WebCallTranscript } from './types.js';

export type { UseWebCall, UseWebCallOptions, WebCallListeners, WebCallTranscript } from './types.js';

const loadWebCall = () => Promise.all([import('../webcall/index.js'), import('./bind-client.js')]);

/** Starts loading the web-call client ahead of a call (e.g. on hover); safe to call repeatedly. */
export function prefetchWebCall(): void {
  void loadWebCall().catch(() => undefined);
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
