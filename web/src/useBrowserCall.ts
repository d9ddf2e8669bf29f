// The "Test in Browser" state machine: idle -> connecting -> active -> idle, over voice/react's
// useWebCall(). The web-call client is imported only when a call starts, or prefetched when the
// pointer or focus reaches the button (with daily-js only for hosted calls: a local emulator's
// calls never load it).
import { useCallback, useRef, useState } from 'react';
import { addCaption, type Caption } from './captions.js';
import type { DemoConfig } from './config.js';
import { notConfiguredText, text } from './messages.js';
import { demoOverrides } from '../../core/visitors/overrides.js';
import { useWebCall, type UseWebCallOptions } from '../../core/react/useWebCall.js';
import type { Visitor } from './visitor.js';

/** What the button shows. */
export type CallState = 'idle' | 'connecting' | 'active';

const loadWebCall = () => import('../../core/webcall/index.js');

/** Starts loading the web-call client (and daily-js, for hosted calls) ahead of the click; safe to call repeatedly. */
export function prefetchWebCall(local: boolean): void {
  void loadWebCall()
    .then((m) => (local ? undefined : m.loadDaily()))
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
  const [message, setMessage] = useState('');
  const [checking, setChecking] = useState(false);
  // Bumped on every press so a start that is cancelled mid-way never resurrects itself.
  const attemptRef = useRef(0);

  const fail = useCallback((err: unknown) => {
    if (isPermissionError(err)) setMessage(text.microphone);
    console.error('Browser call failed:', err);
  }, []);

  const [captions, setCaptions] = useState<Caption[]>([]);
  // avoidEval: Daily loads its call bundle as a script from its CDN instead of eval-ing it, so the page's CSP needs no 'unsafe-eval'.
  const options: UseWebCallOptions = { ...(config.apiBaseUrl ? { baseUrl: config.apiBaseUrl } : {}), callConfig: { avoidEval: true } };
  // Fatal errors go to Sentry (loaded only when a DSN is configured); the client removes name, data and token fields.
  if (config.sentryDsn) options.reportError = (report) => void import('./sentry.js').then((m) => m.reportFatal(report)).catch(() => undefined);
  // useWebCall stops the call itself on a fatal error and on call-end (spec 4: idle means over);
  // a non-fatal error leaves the call running and is only logged (spec 8), by the hook.
  const call = useWebCall(config.publicKey, options, {
    error: (err) => err.fatal && fail(err),
    'camera-error': (err) => err.fatal && fail(err),
    message: (m) => config.captions && setCaptions((lines) => addCaption(lines, m)),
  });
  // Captions clear when the call ends.
  if (call.state === 'idle' && captions.length > 0) setCaptions([]);

  const busy = checking || call.state === 'starting' || call.state === 'active';
  const state: CallState = call.listening && call.state === 'active' ? 'active' : busy ? 'connecting' : 'idle';

  const toggle = useCallback(async () => {
    const attempt = ++attemptRef.current;
    if (state !== 'idle') {
      setChecking(false);
      try {
        await call.stop();
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
    setChecking(true);
    try {
      await checkMicrophone();
      if (attempt !== attemptRef.current) return;
      setChecking(false);
      await call.start(config.assistantId, demoOverrides(visitor));
    } catch (err) {
      setChecking(false);
      if (attempt === attemptRef.current) fail(err);
      else console.error('Browser call failed after it was cancelled:', err);
    }
  }, [config, visitor, fail, state, call]);

  return { state, message, toggle, captions };
}
