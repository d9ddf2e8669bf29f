// A customer's line as audio: its fragments (a line may pause mid-sentence: "I'd like to book
// [0.8s] a table for two"), synthesized in the customer's voice, with the customer's noise, and
// the spans of speech the voice activity detector hears in it. Built before it is said, placed on
// the call's timeline when the customer starts saying it.
import type { NoiseOptions, PcmLike } from './port.js';
import type { Span } from './rules.js';
import type { TimelineWord } from './timeline.js';
import { SAMPLE_RATE, shifted } from './timeline.js';
import type { Voices } from './voices.js';

/** A line's parts: text said, or seconds of silence. */
export type Fragments = (string | number)[];

/** A pause written inside a line: `[0.8s]` (seconds, up to 60). */
const PAUSE = /\[\s*(\d+(?:\.\d+)?)\s*s\s*\]/g;

/** The fragments of a line: its text split at `[Ns]` pause marks (a line without marks is one fragment). */
export function fragmentsOf(line: string | Fragments): Fragments {
  const parts = typeof line === 'string' ? line.split(PAUSE).map((p, i) => (i % 2 ? Number(p) : p.trim())) : line;
  return parts.filter((p) => (typeof p === 'number' ? p > 0 : p.trim() !== ''));
}

/** What a line says, without its pauses. */
export function lineText(line: string | Fragments): string {
  return fragmentsOf(line)
    .filter((p): p is string => typeof p === 'string')
    .join(' ');
}

/** Why a written line cannot be said, or undefined (for scenario checks and `voice call say`). */
export function lineProblem(line: unknown): string | undefined {
  if (typeof line === 'string') {
    for (const m of line.matchAll(PAUSE)) if (Number(m[1]) > 60) return `a pause of ${m[1]} s is longer than 60 s`;
    return lineText(line) ? undefined : 'it says nothing (only pauses)';
  }
  if (!Array.isArray(line)) return 'it must be text, or a list of text and pauses in seconds like ["I\'d like to book", 0.8, "a table"]';
  for (const p of line) {
    if (typeof p === 'number' && !(p >= 0 && p <= 60)) return `a pause must be 0 to 60 seconds (got ${p})`;
    if (typeof p !== 'number' && typeof p !== 'string') return 'each part must be text or a pause in seconds';
  }
  return lineText(line as Fragments) ? undefined : 'it says nothing (only pauses)';
}

/** A fragment of a line as said, in seconds from the line's start. */
export interface SaidFragment {
  text: string;
  at: number;
  end: number;
  words: TimelineWord[];
}

/** A customer line ready to be said: fragments, pauses, words and detected speech, timed from its start. */
export interface Utterance {
  text: string;
  fragments: SaidFragment[];
  pauses: Span[];
  words: TimelineWord[];
  /** What the detector heard as speech. */
  spans: Span[];
  seconds: number;
  /** Milliseconds spent synthesizing it before it could be said (0 when it was ready). */
  ms: number;
}

/** Lines prepared lately, by voices, line and noise: a line prepared ahead (a scenario's) is not made twice. */
const PREPARED_KEPT = 256;
const prepared = new WeakMap<Voices, Map<string, Promise<Utterance>>>();

/**
 * Synthesizes a line in the customer's voice and runs the detector on it (with the noise, when
 * there is any). `ahead`: a line said later (a scenario's, prepared as the call starts), made
 * after what someone waits for; the same line asked for again is not made twice.
 */
export async function prepare(line: string | Fragments, voices: Voices, noise?: NoiseOptions, urgency: 'now' | 'ahead' = 'now'): Promise<Utterance> {
  const kept = prepared.get(voices) ?? new Map<string, Promise<Utterance>>();
  prepared.set(voices, kept);
  const key = JSON.stringify([line, noise ?? null]);
  const found = kept.get(key);
  if (found) {
    // Asked for now while it is still being made ahead: its synthesis moves to the front.
    if (urgency === 'now') for (const part of fragmentsOf(line)) if (typeof part === 'string') void voices.speech('customer', part, 'now').catch(() => undefined);
    const u = await found;
    return { ...u, ms: 0 };
  }
  const making = made(line, voices, noise, urgency);
  kept.set(key, making);
  making.catch(() => kept.delete(key));
  if (kept.size > PREPARED_KEPT) kept.delete(kept.keys().next().value as string);
  return making;
}

async function made(line: string | Fragments, voices: Voices, noise: NoiseOptions | undefined, urgency: 'now' | 'ahead'): Promise<Utterance> {
  const fragments: SaidFragment[] = [];
  const pauses: Span[] = [];
  const audio: PcmLike[] = [];
  let at = 0;
  let ms = 0;
  for (const part of fragmentsOf(line)) {
    if (typeof part === 'number') {
      pauses.push({ start: at, end: at + part });
      audio.push({ samples: new Int16Array(Math.round(part * SAMPLE_RATE)), sampleRate: SAMPLE_RATE });
      at += part;
      continue;
    }
    const said = await voices.speech('customer', part, urgency);
    ms += said.ms;
    fragments.push({ text: part, at, end: at + said.speech.duration, words: shifted(said.speech.words, at) });
    audio.push(said.speech);
    at += said.speech.duration;
  }
  const samples = new Int16Array(audio.reduce((n, p) => n + p.samples.length, 0));
  let offset = 0;
  for (const p of audio) {
    samples.set(p.samples, offset);
    offset += p.samples.length;
  }
  const heard = noise ? voices.port.addNoise({ samples, sampleRate: SAMPLE_RATE }, noise) : { samples, sampleRate: SAMPLE_RATE };
  const spans = await voices.port.detectSpeech(heard);
  return { text: lineText(line), fragments, pauses, words: fragments.flatMap((f) => f.words), spans, seconds: samples.length / SAMPLE_RATE, ms };
}

/** The words of an utterance said from `at` on the call's timeline. */
export function placedWords(u: Utterance, at: number): TimelineWord[] {
  return shifted(u.words, at);
}

/** The detector's spans of an utterance said from `at`. */
export function placedSpans(u: Utterance, at: number): Span[] {
  return u.spans.map((s) => ({ start: s.start + at, end: s.end + at }));
}
