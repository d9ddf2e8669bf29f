// The socket protocol between `voice/webcall` and the emulator's web calls: one place for the
// URL marker and the frames both sides send. Browser-safe and tiny (it ships in the client).

/** Path under the emulator where web calls are joined: `http://127.0.0.1:4010/__voice/webcall/<callId>`. */
export const LOCAL_WEBCALL_PATH = '/__voice/webcall/';

/** True when a `webCallUrl` names an emulator's web call (joined over a WebSocket, not through Daily). */
export function isLocalWebCallUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return /^(https?|wss?):$/.test(parsed.protocol) && parsed.pathname.startsWith(LOCAL_WEBCALL_PATH);
  } catch {
    return false;
  }
}

/** The WebSocket address of a local web call (`http` becomes `ws`, `https` becomes `wss`). */
export function localSocketUrl(url: string): string {
  return url.replace(/^http/i, 'ws');
}

/**
 * The protocol's version. 1: text only (the browser speaks each line itself). 2: a client that
 * asks for audio (`?audio=pcm16` on the socket address) may be told `audio`, then hears the
 * assistant as binary frames and sends its microphone the same way. Either side talks to the other
 * version: an emulator that never says `audio` gets text lines played as before.
 */
export const LOCAL_PROTOCOL_VERSION = 2;

/** The socket address a client that plays streamed audio joins (an emulator of version 1 ignores the query). */
export function audioSocketUrl(url: string): string {
  const ws = localSocketUrl(url);
  return `${ws}${ws.includes('?') ? '&' : '?'}audio=pcm16&v=${LOCAL_PROTOCOL_VERSION}`;
}

/** Whether a socket address asks for streamed audio. */
export function asksForAudio(url: string): boolean {
  return /[?&]audio=pcm16(&|$)/.test(url);
}

/** Frames the emulator sends to the browser (binary frames, after `audio`: the assistant's speech as 16-bit little-endian mono PCM). */
export type ServerFrame =
  /** The browser is in the call (it is `in-progress`). */
  | { type: 'joined'; callId: string }
  /** An in-call message, exactly as Daily's app messages carry it (`listening`, or a client message). */
  | { type: 'app-message'; data: unknown }
  /** The assistant says `text`; the line lasts about `durationMs` when no voice is available. */
  | { type: 'speak'; id: string; text: string; durationMs: number }
  /** The call has sound: the assistant's speech comes as binary frames at `sampleRate`, and the microphone goes back the same way. */
  | { type: 'audio'; sampleRate: number }
  /** The assistant stops talking at once (interrupted, muted, or the call is ending). */
  | { type: 'silence' }
  /** The call ended on the emulator's side; the socket closes next. */
  | { type: 'left'; endedReason: string };

/** Frames the browser sends to the emulator (binary frames, after `audio`: the microphone as 16-bit little-endian mono PCM at its `sampleRate`). */
export type ClientFrame =
  /** What the client would send as a Daily app message (`playable`, say, add-message, control, end-call). */
  | { type: 'app-message'; data: string }
  /** The customer spoke (the microphone was over the speech threshold) for `durationMs`. */
  | { type: 'customer-speech'; durationMs: number }
  /** The customer said `text`: the browser's speech recognition heard it, or the page sent it typed. */
  | { type: 'customer-text'; text: string }
  /** The line `id` finished playing. */
  | { type: 'spoken'; id: string }
  /** Whether the browser's speech recognition turns the microphone into words (else the emulator's voice activity detector makes wordless turns). */
  | { type: 'recognition'; working: boolean };

/** WebSocket close code the emulator uses when it ends the call. */
export const CLOSE_ENDED = 4000;
