// The part of useWebCall() that runs when the first call starts: the WebCall client, created with
// the hook's latest key and options, its events turned into the hook's state. It is imported with
// the web-call client (import()), so a page's first load carries only the hook's state.
import type { WebCall } from '../webcall/webcall.js';
import type { InCallMessage, WebCallError, WebCallState } from '../webcall/types.js';
import type { UseWebCallOptions, WebCallListeners, WebCallTranscript } from './types.js';

/** What the hook had at its latest render (listeners are read when an event fires). */
export interface Latest {
  current: { publicKey: string; options: UseWebCallOptions; listeners: WebCallListeners };
}

/** The hook's state setters (React's, stable). */
export interface HookState {
  setState(state: WebCallState): void;
  setListening(listening: boolean): void;
  setVolume(volume: number): void;
  setMuted(muted: boolean): void;
  setTranscript(transcript: WebCallTranscript | null): void;
  setError(error: WebCallError): void;
}

/**
 * A client for the hook: its events update the hook's state while `mine(client)` holds (the
 * component still uses it), and whatever ends the call also stops the client.
 */
export function createClient(WebCallClass: typeof WebCall, latest: Latest, mine: (client: WebCall) => boolean, set: HookState): WebCall {
  const { publicKey: key, options: o } = latest.current;
  const { baseUrl, callConfig, callObjectOptions, ...rest } = o;
  const client = new WebCallClass(key, baseUrl, callConfig, callObjectOptions, rest);
  const current = () => mine(client);
  client.on('state', (next) => {
    if (!current()) return;
    set.setState(next);
    if (next === 'idle') {
      set.setListening(false);
      set.setVolume(0);
      set.setMuted(false);
      set.setTranscript(null);
    }
  });
  client.on('call-start', () => {
    if (!current()) return;
    set.setListening(true);
    latest.current.listeners['call-start']?.();
  });
  // Idle means over: whatever ends the call (call-end, a fatal error) also stops the client, so
  // no call, timer or microphone track outlives it (a client already ending or idle is left be).
  const end = () => {
    if (client.state !== 'starting' && client.state !== 'active') return;
    void client.stop().catch((failure: unknown) => console.error('[voice/react] stopping the call failed:', failure));
  };
  client.on('call-end', () => {
    if (!current()) return;
    set.setListening(false);
    end();
    latest.current.listeners['call-end']?.();
  });
  client.on('volume-level', (level) => current() && set.setVolume(level));
  const onError = (name: 'error' | 'camera-error') => (e: WebCallError) => {
    if (!current()) return;
    if (e.fatal) {
      set.setError(e);
      end();
    } else {
      console.warn(`[voice/react] ${e.type} (the call goes on):`, e.error?.message);
    }
    latest.current.listeners[name]?.(e);
  };
  client.on('error', onError('error'));
  client.on('camera-error', onError('camera-error'));
  client.on('message', (message: InCallMessage) => {
    if (!current()) return;
    if (message?.type === 'transcript' && typeof message.transcript === 'string') {
      set.setTranscript({ role: message.role, text: message.transcript, final: message.transcriptType !== 'partial' });
    }
    latest.current.listeners.message?.(message);
  });
  return client;
}
