// The "Test in Browser" state machine: idle -> connecting -> active -> idle, over voice/react's
// useWebCall(). The web-call client is imported only when a call starts, or prefetched when the
// pointer or focus reaches the button (with daily-js only for hosted calls: a local emulator's
// calls never load it). It runs in CallEngine.tsx, itself loaded on that hover, focus or press
// (call-shell.tsx), so none of it is in the page's first load.
import { useCallback, useRef, useState } from 'react';
import type { DemoConfig, LocalCallInfo } from './config.js';
import { demoOverrides } from '#core/visitors/overrides';
import { prefetchWebCall as prefetchClient, useWebCall, type UseWebCallOptions } from '#core/react/useWebCall';
import type { WebCall } from '#core/webcall/webcall';
import type { Visitor } from './visitor.js';

/** What the button shows. */
export type CallState = 'idle' | 'connecting' | 'active';

/** What the page shows of the call: the button's state, a message, the client the captions follow, and on the local platform where the call runs. */
export interface CallView {
  state: CallState;
  message: string;
  client: WebCall | null;
  /** On the local platform: the emulator the call runs on, and the call (shown by LocalNote). */
  note?: { info: LocalCallInfo; callId?: string } | null;
}

const loadWebCall = () => import('voice-agent-core/webcall');
/** What a press says and checks (lazy, see call-help.ts). */
const loadHelp = () => import('./call-help.js');
/** The captions (lazy: nothing of them in the first load). */
const loadCaptions = () => import('./Captions.js');

/** Starts loading the web-call client (and daily-js, for hosted calls) ahead of the click; safe to call repeatedly. */
export function prefetchWebCall(local: boolean): void {
  void loadHelp().catch(() => undefined);
  void loadCaptions().catch(() => undefined);
  prefetchClient();
  if (!local)
    void loadWebCall()
      .then((m) => m.loadDaily())
      .catch(() => undefined);
}

/** Runs one browser call at a time for the visitor; returns the state, a message and the toggle. */
export function useBrowserCall(config: DemoConfig, visitor: Visitor) {
  const [message, setMessage] = useState('');
  const [note, setNote] = useState<CallView['note']>(null);
  const [checking, setChecking] = useState(false);
  // Bumped on every press so a start that is cancelled mid-way never resurrects itself.
  const attemptRef = useRef(0);

  const fail = useCallback((err: unknown) => {
    console.error('Browser call failed:', err);
    void loadHelp().then(
      (help) => help.isPermissionError(err) && setMessage(help.callText.microphone),
      () => undefined,
    );
  }, []);

  // avoidEval: Daily loads its call bundle as a script from its CDN instead of eval-ing it, so the page's CSP needs no 'unsafe-eval'.
  const options: UseWebCallOptions = { ...(config.apiBaseUrl ? { baseUrl: config.apiBaseUrl } : {}), callConfig: { avoidEval: true } };
  // Fatal errors go to Sentry (loaded only when a DSN is configured); the client removes name, data and token fields.
  if (config.sentryDsn) options.reportError = (report) => void import('./sentry.js').then((m) => m.reportFatal(report)).catch(() => undefined);
  // useWebCall stops the call itself on a fatal error and on call-end (spec 4: idle means over);
  // a non-fatal error leaves the call running and is only logged (spec 8), by the hook.
  const call = useWebCall(config.publicKey, options, {
    error: (err) => err.fatal && fail(err),
    'camera-error': (err) => err.fatal && fail(err),
  });

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
    setNote(null);
    setChecking(true);
    try {
      const help = await loadHelp();
      if (attempt !== attemptRef.current) return;
      if (!config.publicKey || !(config.assistantId || config.localCalls)) {
        setChecking(false);
        const shown = help.notConfiguredText(window.location.hostname);
        if (shown !== help.callText.notConfigured) console.warn(help.callText.notConfigured);
        setMessage(shown);
        return;
      }
      // The captions' code is ready before the call starts, so they never miss its first line.
      // On a local emulator the demo's assistant is looked up now: the emulator may have started after the page.
      const [, , target] = await Promise.all([help.checkMicrophone(), config.captions && loadCaptions(), config.localCalls ? help.localAssistant() : { assistantId: config.assistantId }]);
      if (attempt !== attemptRef.current) return;
      setChecking(false);
      const started = await call.start(target.assistantId, demoOverrides(visitor));
      // On the local platform the page says where the call runs and where to see it.
      const local = 'local' in target ? target.local : undefined;
      if (local && attempt === attemptRef.current) setNote({ info: local, ...(started?.id ? { callId: started.id } : {}) });
    } catch (err) {
      setChecking(false);
      if (attempt === attemptRef.current) fail(err);
      else console.error('Browser call failed after it was cancelled:', err);
    }
  }, [config, visitor, fail, state, call]);

  // The client of the call in progress (the captions listen to it), null when idle.
  const client = call.state === 'idle' ? null : call.call;
  return { state, message, toggle, client, note };
}
