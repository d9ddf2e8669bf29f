// A call's audio timeline: everything that was heard on the call, in order, with its time in
// seconds from the moment the call was answered (`startedAt`). Speech events name their text and
// voice, not their samples: the synthesizer gives the same samples for the same text, so the
// recording is made again from the timeline when it is asked for (render.ts), and a kept call
// costs a few kilobytes, not megabytes. The timeline is the one source of the recording, the
// transcript's cuts and the turn latencies; other views (the inspector, voice-mode simulations)
// read it through `calls/index.ts`.
import type { Side } from './voices.js';

export type { Side } from './voices.js';

/** A word and when it is said, in seconds from the call's start. */
export interface TimelineWord {
  word: string;
  start: number;
  end: number;
}

/** A line said (or the part of it said before a cut). A customer line with pauses is one event per fragment. */
export interface SpeechEvent {
  type: 'speech';
  side: Side;
  /** Where the audio starts and ends (the cut, when cut). */
  at: number;
  end: number;
  text: string;
  /** Every word of the text with its timing, cut or not. */
  words: TimelineWord[];
  /** Where the speech was cut off, and the words said by then ("stops at the word it had reached"). */
  cut?: { at: number; heard: string };
  /** Which line of the side this fragment belongs to (1, 2, ...): a line's fragments share it. */
  line: number;
  /** What made the assistant speak: its first message, a reply, a hook, an end-of-call message. */
  source?: 'first-message' | 'reply' | 'hook' | 'say' | 'end';
  /** The key of audio a voice server sent for the line (kept as sent: it cannot be synthesized again). */
  audio?: string;
}

/** A line the developer's voice server spoke (`voice-request`): its text, the audio's length, the time to its first byte. */
export interface VoiceEvent {
  type: 'voice';
  at: number;
  text: string;
  url: string;
  /** How many `voice-request`s the chunk plan cut the line into. */
  chunks: number;
  seconds: number;
  firstByteMs: number;
}

/** A silence in the middle of a customer's line (between two of its fragments). */
export interface PauseEvent {
  type: 'pause';
  side: 'customer';
  at: number;
  end: number;
  line: number;
}

/** Keypad tones: the customer's keys, or the assistant's `dtmf` tool. */
export interface KeysEvent {
  type: 'keys';
  side: Side;
  at: number;
  end: number;
  digits: string;
}

/** Speech the voice activity detector found in the customer's audio. */
export interface VadEvent {
  type: 'vad';
  side: 'customer';
  at: number;
  end: number;
}

/** One side spoke over the other: the customer cut the assistant off (`by: 'customer'`), or the assistant talked over the customer. */
export interface InterruptionEvent {
  type: 'interruption';
  by: Side;
  at: number;
  /** Why the assistant stopped (the stopSpeakingPlan rule), or why it did not. */
  rule: string;
  /** The interrupted side's words said by then (the assistant's heard text, or the customer's words so far). */
  heard: string;
}

/** The customer said a backchannel ("yeah") over the assistant, which carried on. */
export interface AcknowledgementEvent {
  type: 'acknowledgement';
  at: number;
  text: string;
}

/** The customer's turn was judged over: `at` the decision, `speechEnd` where speech stopped, by which rule. */
export interface EndpointEvent {
  type: 'endpoint';
  at: number;
  speechEnd: number;
  rule: string;
  seconds: number;
  transcript: string;
}

/** A hook fired (`customer.speech.timeout`, the interruption hooks). */
export interface HookEvent {
  type: 'hook';
  at: number;
  on: string;
  name?: string;
  /** How many times this hook has fired in the call, this time included. */
  count: number;
  actions: string[];
}

/** A reply the assistant never started: the customer spoke again first. */
export interface DroppedEvent {
  type: 'dropped';
  at: number;
  text: string;
}

/** One turn's latencies in milliseconds, at the moment the assistant started answering. */
export interface LatencyEvent {
  type: 'latency';
  at: number;
  modelLatency: number;
  voiceLatency: number;
  transcriberLatency: number;
  endpointingLatency: number;
  turnLatency: number;
}

/** What the developer's transcriber heard for a customer turn (`written`: the line the simulated customer said; a web call's microphone has none). */
export interface TranscriberEvent {
  type: 'transcriber';
  at: number;
  url: string;
  text: string;
  written?: string;
  /** Unset when it was not measured (a web call's detector had not closed the customer's speech yet). */
  latencyMs?: number;
  /** The binary frames of call audio sent for this turn. */
  frames?: number;
  /** Every message the transcriber sent during the turn, either channel, in order. */
  messages?: { channel: string; text: string }[];
}

/** The developer's endpointing answered a customer transcript (`call.endpointing.request`); `failed`: why the local plan decided instead. */
export interface EndpointingEvent {
  type: 'endpointing';
  at: number;
  url?: string;
  transcript: string;
  /** How long the turn is held after the speech (the answer's, or the local plan's after a failure). */
  timeoutSeconds: number;
  failed?: string;
}

/** What the developer's knowledge base answered before a model turn (`knowledge-base-request`): documents, a line to say, or why it failed. */
export interface KnowledgeBaseEvent {
  type: 'knowledge-base';
  at: number;
  url?: string;
  documents: { content: string; similarity?: number }[];
  say?: string;
  failed?: string;
}

/** Everything a timeline holds. */
export type TimelineEvent =
  | SpeechEvent
  | PauseEvent
  | KeysEvent
  | VadEvent
  | InterruptionEvent
  | AcknowledgementEvent
  | EndpointEvent
  | HookEvent
  | DroppedEvent
  | LatencyEvent
  | VoiceEvent
  | TranscriberEvent
  | EndpointingEvent
  | KnowledgeBaseEvent;

/** A call's timeline as kept with the call (plain JSON). */
export interface TimelineData {
  version: 1;
  /** The recording's sample rate. */
  sampleRate: number;
  /** Noise in the customer's channel, when their scenario asked for it. */
  noise?: { snrDb: number; seed: number; color?: 'white' | 'pink' };
  events: TimelineEvent[];
  /** The call's length in seconds, once it has ended (the recording's length). */
  seconds?: number;
}

/** The recording's sample rate: wideband, as recognisers need. */
export const SAMPLE_RATE = 16000;

const round = (s: number): number => Math.round(s * 1000) / 1000;

/** A call's timeline while it runs: events appended in the order they happen. */
export class Timeline {
  readonly data: TimelineData = { version: 1, sampleRate: SAMPLE_RATE, events: [] };
  private lines: Record<Side, number> = { customer: 0, assistant: 0 };

  /** Numbers a new line of a side (its fragments share the number). */
  nextLine(side: Side): number {
    return ++this.lines[side];
  }

  /** Appends an event, its times rounded to the millisecond. */
  add<E extends TimelineEvent>(event: E): E {
    const e = { ...event, at: round(event.at) } as E & { end?: number; speechEnd?: number };
    if (e.end !== undefined) e.end = round(e.end);
    if (e.speechEnd !== undefined) e.speechEnd = round(e.speechEnd);
    this.data.events.push(e);
    return e;
  }

  /** The events of one type. */
  of<T extends TimelineEvent['type']>(type: T): Extract<TimelineEvent, { type: T }>[] {
    return this.data.events.filter((e): e is Extract<TimelineEvent, { type: T }> => e.type === type);
  }
}

/** The words of `words` moved by `offset` seconds and rounded, for an event. */
export function shifted(words: readonly TimelineWord[], offset: number): TimelineWord[] {
  return words.map((w) => ({ word: w.word, start: round(w.start + offset), end: round(w.end + offset) }));
}
