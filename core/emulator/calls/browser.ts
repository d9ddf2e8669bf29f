// The seam between a browser in a web call and the call engine: what the engine may do to the
// browser, and what the browser does to the call. The web-call socket (http/webcall-socket.ts)
// carries these over a WebSocket; the engine (runner.ts, web.ts) implements them.
import type { Rec } from '../store/store.js';

/** The browser, as the call engine sees it. */
export interface BrowserCustomer {
  /** Hands the browser an in-call message (`listening`, or a client message the assistant subscribes to). */
  message(data: unknown): void;
  /** The assistant says a line lasting about `seconds`; resolves when the browser has played it (or it was cut). */
  speak(text: string, seconds: number): Promise<void>;
  /** The assistant stops talking at once. */
  silence(): void;
  /** The call ended on the emulator's side: the browser leaves. */
  end(endedReason: string): void;
  /** A browser that plays streamed audio (it asked for it when it joined); absent: it speaks each line itself. */
  audio?: BrowserAudioLink;
}

/** The audio link to a browser that asked for streamed audio. */
export interface BrowserAudioLink {
  /** Tells the browser the call has sound: the assistant's audio and its microphone go as 16-bit mono PCM at `sampleRate`. */
  start(sampleRate: number): void;
  /** Sends a piece of the assistant's audio. */
  send(samples: Int16Array): void;
}

/** What the browser does to a running call. */
export interface BrowserCall {
  /** The browser plays the assistant's audio: the conversation can begin. */
  playable(): void;
  /** The customer spoke for `durationMs` (the microphone was over the speech threshold). */
  customerSpoke(durationMs: number): void;
  /** The customer said `text` (the browser's speech recognition, or typed). */
  customerSaid(text: string): void;
  /** A piece of the microphone's audio (16-bit mono PCM at the rate `start` named), once the call has sound. */
  microphone?(samples: Int16Array): void;
  /** Whether the browser's speech recognition is turning the microphone into words. */
  recognition?(working: boolean): void;
  /** A live-call-control message: say, add-message, control, end-call. */
  control(message: Record<string, unknown>): void;
  /** The browser left (stop(), a closed tab): the customer ended the call. */
  left(): void;
}

/** Runs a web call the browser has joined; the call is `in-progress` from here on. */
export type WebCallEngine = (call: Rec, customer: BrowserCustomer) => BrowserCall;
