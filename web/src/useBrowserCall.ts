// The "Test in Browser" state machine: idle -> connecting -> active -> idle. The web-call
// client (and daily-js behind it) is imported only when a call starts, or prefetched when the
// pointer or focus reaches the button.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DemoConfig } from './config.js';
import { notConfiguredText, text } from './messages.js';
import { demoOverrides } from '../../core/visitors/overrides.js';
import type { Visitor } from './visitor.js';

/** What the button shows. */
export type CallState = 'idle' | 'connecting' | 'active';

/** The part of the web-call client the page uses (same surface as the platform's browser SDK). */
interface BrowserCall {
  start(assistantId: string, overrides: ReturnType<typeof demoOverrides>): Promise<unknown>;
  stop(): unknown;
  on(event: 'call-start' | 'call-end' | 'error' | 'camera-error', listener: (payload?: unknown) => void): unknown;
}

const loadWebCall = () => import('../../core/webcall/index.js');

/** Starts loading the web-call client and daily-js ahead of the click; safe to call repeatedly. */
export function prefetchWebCall(): void {
  void loadWebCall()
    .then((m) => m.loadDaily())
    .catch(() => undefined);
}

/** True when an error (or anything it wraps) says the microphone was refused. */
export function isPermissionError(err: unknown, depth = 0): boolean {
  if (err == null || typeof err !== 'object' || depth > 4) return false;
  const e = err as { type?: unknown; name?: unknown; error?: unknown; errorMsg?: unknown };
  if (e.type === 'permissions' || e.type === 'not-allowed') return true;
  if (e.name === 'NotAllowedError' || e.name === 'PermissionDeniedError' || e.name === 'SecurityError') return true;
  return isPermissionError(e.error, depth + 1) || isPermissionError(e.errorMsg, depth + 1);
}

/** Asks for the microphone up front so a refusal is reported before any network call. */
async function checkMicrophone(): Promise<void> {
  const devices = globalThis.navigator?.mediaDevices;
  if (!devices?.getUserMedia) throw new Error('This browser cannot capture audio here (a secure context is needed).');
  const stream = await devices.getUserMedia({ audio: true });
  for (const track of stream.getTracks()) track.stop();
}

/** Runs one browser call at a time for the visitor; returns the state, a message and the toggle. */
export function useBrowserCall(config: DemoConfig, visitor: Visitor) {
  const [state, setState] = useState<CallState>('idle');
  const [message, setMessage] = useState('');
  const callRef = useRef<BrowserCall | null>(null);
  // Bumped on every press so a start that is cancelled mid-way never resurrects itself.
  const attemptRef = useRef(0);

  const fail = useCallback((err: unknown) => {
    if (isPermissionError(err)) setMessage(text.microphone);
    console.error('Browser call failed:', err);
    callRef.current = null;
    setState('idle');
  }, []);

  useEffect(() => () => void callRef.current?.stop(), []);

  const toggle = useCallback(async () => {
    const attempt = ++attemptRef.current;
    if (state !== 'idle') {
      const call = callRef.current;
      callRef.current = null;
      setState('idle');
      try {
        await call?.stop();
      } catch (err) {
        console.error('Stopping the call failed:', err);
      }
      return;
    }
    setMessage('');
    if (!config.publicKey || !config.assistantId) {
      const shown = notConfiguredText(window.location.hostname);
      if (shown !== text.notConfigured) console.warn(text.notConfigured);
      setMessage(shown);
      return;
    }
    setState('connecting');
    try {
      await checkMicrophone();
      const { WebCall } = await loadWebCall();
      if (attempt !== attemptRef.current) return;
      // avoidEval: Daily loads its call bundle as a script from its CDN instead of eval-ing it, so the page's CSP needs no 'unsafe-eval'.
      const call: BrowserCall = new WebCall(config.publicKey, config.apiBaseUrl || undefined, { avoidEval: true });
      callRef.current = call;
      call.on('call-start', () => {
        if (callRef.current === call) setState('active');
      });
      call.on('call-end', () => {
        if (callRef.current !== call) return;
        callRef.current = null;
        setState('idle');
      });
      call.on('error', (err) => {
        if (callRef.current === call) fail(err);
      });
      // A refused microphone during the join arrives as a media error; the call cannot go on.
      call.on('camera-error', (err) => {
        if (callRef.current !== call || !isPermissionError(err)) return;
        fail(err);
        void call.stop();
      });
      await call.start(config.assistantId, demoOverrides(visitor));
    } catch (err) {
      if (attempt === attemptRef.current) fail(err);
      else console.error('Browser call failed after it was cancelled:', err);
    }
  }, [config, visitor, fail, state]);

  return { state, message, toggle };
}
