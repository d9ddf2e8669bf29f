// Speech synthesis with word timings: Flite says the text as one utterance (its own prosody),
// then the phones of each word said alone (cached per word) are aligned to it (words.ts).
import { fliteModule, flitePhones, fliteSpeak, type FliteVoice } from './flite.js';
import type { Pcm } from './pcm.js';
import { resample } from './resample.js';
import { decodeWav } from './wav.js';
import { isSpoken, tokensOf, wordTimings, type WordTiming } from './words.js';

/** The two stand-in voices of a call, or one of Flite's voices by name. */
export type VoiceName = 'assistant' | 'customer' | FliteVoice;

/** Which Flite voice stands in for each side: two voices a listener tells apart (female US, male US). */
export const STAND_IN_VOICES: Readonly<Record<'assistant' | 'customer', FliteVoice>> = { assistant: 'slt', customer: 'rms' };

const FLITE_VOICES: readonly FliteVoice[] = ['slt', 'rms', 'awb', 'kal16'];

/** How to say a text. */
export interface SynthesisOptions {
  /** 'assistant' (default), 'customer', or a Flite voice: slt, rms, awb, kal16. */
  voice?: VoiceName;
  /** Output sample rate, 16000 (Flite's own, the default) or more; resampled when higher. */
  sampleRate?: number;
}

/** Synthesized speech: mono 16-bit audio, its length and when each word is said. */
export interface Speech extends Pcm {
  text: string;
  voice: FliteVoice;
  /** Seconds. */
  duration: number;
  /** One entry per whitespace-separated token of the text, in order, within [0, duration]. */
  words: WordTiming[];
}

/** Phones of each word said alone: the same word always gets the same phones, so they are kept. */
const phonesOfToken = new Map<string, string[]>();
const MAX_CACHED_TOKENS = 20_000;

async function phonesOf(tokens: readonly string[]): Promise<string[][]> {
  const missing = [...new Set(tokens.filter((t) => isSpoken(t) && !phonesOfToken.has(t)))];
  if (missing.length) {
    // One run for all of them; when a token makes more or fewer than one utterance, one run each.
    const together = await flitePhones(missing);
    const found = together ?? (await Promise.all(missing.map(async (t) => (await flitePhones([t]))?.[0] ?? [])));
    if (phonesOfToken.size + missing.length > MAX_CACHED_TOKENS) phonesOfToken.clear();
    missing.forEach((t, i) => phonesOfToken.set(t, found[i] ?? []));
  }
  return tokens.map((t) => (isSpoken(t) ? (phonesOfToken.get(t) ?? []) : []));
}

/** The Flite voice a voice name stands for; throws on an unknown name. */
export function fliteVoiceOf(voice: VoiceName = 'assistant'): FliteVoice {
  if (voice === 'assistant' || voice === 'customer') return STAND_IN_VOICES[voice];
  if (FLITE_VOICES.includes(voice)) return voice;
  throw new Error(`unknown voice "${String(voice)}" (assistant, customer, ${FLITE_VOICES.join(', ')})`);
}

/** Says `text`: 16-bit mono PCM at 16 kHz or more, its duration and each word's start and end. */
export async function synthesize(text: string, options: SynthesisOptions = {}): Promise<Speech> {
  const voice = fliteVoiceOf(options.voice);
  const sampleRate = options.sampleRate ?? 16000;
  if (!Number.isInteger(sampleRate) || sampleRate < 16000) throw new Error(`sampleRate must be a whole number of Hz, 16000 or more (got ${sampleRate})`);
  const tokens = tokensOf(text);
  if (!tokens.some(isSpoken)) {
    await fliteModule();
    return { text, voice, samples: new Int16Array(0), sampleRate, duration: 0, words: tokens.map((word) => ({ word, start: 0, end: 0 })) };
  }
  const { wav, segments } = await fliteSpeak(text, voice);
  let pcm = decodeWav(wav);
  if (pcm.sampleRate !== sampleRate) pcm = resample(pcm, sampleRate);
  const duration = pcm.samples.length / sampleRate;
  const words = wordTimings(tokens, segments, await phonesOf(tokens)).map((w) => ({ ...w, start: Math.min(w.start, duration), end: Math.min(w.end, duration) }));
  return { text, voice, samples: pcm.samples, sampleRate, duration, words };
}
