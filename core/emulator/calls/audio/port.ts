// What the call engine needs from `voice-agent-audio`, declared here: core never imports the
// optional package statically (lint refuses it), it loads it with import() when a call first needs
// sound and checks it against this shape (audio.test.ts shows the package satisfies it).
// Named apart: bundles that open with a require shim declare `createRequire` themselves.
import { createRequire as requireAt } from 'node:module';

/** 16-bit PCM, mono unless `channels` is 2 (interleaved). */
export interface PcmLike {
  samples: Int16Array;
  sampleRate: number;
  channels?: 1 | 2;
}

/** One word of a text and when it is said, in seconds from the start of its audio. */
export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** Synthesized speech: mono audio, its length and each word's timing. */
export interface SpeechLike extends PcmLike {
  text: string;
  duration: number;
  words: TimedWord[];
}

/** A span of speech the detector found, in seconds from the start of the audio. */
export interface SpanLike {
  start: number;
  end: number;
}

/** Background noise at a signal-to-noise ratio against the speech level, from a seed. */
export interface NoiseOptions {
  snrDb: number;
  seed: number;
  color?: 'white' | 'pink';
}

/** Speech made on a worker thread: texts asked for `now` go before those asked for `ahead`. */
export interface SynthesizerLike {
  /** Worker threads it runs on (0: the main thread). */
  readonly threads?: number;
  synthesize(text: string, options?: { voice?: 'assistant' | 'customer'; urgency?: 'now' | 'ahead' }): Promise<SpeechLike>;
}

/** A boundary of live speech: `time` in seconds of the audio fed so far. */
export interface VadEventLike {
  type: 'speech-start' | 'speech-end';
  time: number;
}

/** A voice activity detector fed live audio in chunks (a browser's microphone). */
export interface VadStreamLike {
  push(samples: Int16Array | Float32Array): VadEventLike[];
  end(): VadEventLike[];
  readonly speaking: boolean;
}

/** The functions of voice-agent-audio the call engine uses. */
export interface AudioPort {
  synthesize(text: string, options?: { voice?: 'assistant' | 'customer' }): Promise<SpeechLike>;
  /** A synthesizer off the main thread (absent from versions before it). */
  createSynthesizer?(): SynthesizerLike;
  detectSpeech(pcm: PcmLike): Promise<SpanLike[]>;
  createVadStream(options?: { sampleRate?: number }): Promise<VadStreamLike>;
  addNoise(pcm: PcmLike, options: NoiseOptions): PcmLike;
  dtmfTones(digits: string, options?: { sampleRate?: number; toneSeconds?: number; gapSeconds?: number }): PcmLike;
  interleave(left: PcmLike, right: PcmLike): PcmLike;
  resample(pcm: PcmLike, sampleRate: number): PcmLike;
  encodeWav(pcm: PcmLike): Uint8Array;
  warm(): Promise<unknown>;
}

/** The package to install for sound, as every "audio is off" note names it. */
export const AUDIO_PACKAGE = 'voice-agent-audio';

/** Why a call has no sound, and how to give it sound. */
export const AUDIO_OFF = {
  missing: `audio is off: ${AUDIO_PACKAGE} is not installed (install it, npm install ${AUDIO_PACKAGE}, to give local calls speech, voice activity detection and the timing rules)`,
  disabled: 'audio is off (--no-audio): calls run on the text timeline; start voice dev without --no-audio to give them speech and the timing rules',
  web: 'audio is off for this web call: its page did not ask for streamed audio, so the browser speaks and listens itself (join with voice-agent-core/webcall, whose local calls stream audio, to hear the synthesized voice and have the microphone heard)',
} as const;

/** Why audio is off for a call, when it is. */
export type AudioOffReason = keyof typeof AUDIO_OFF;

/** How a call's summary and views begin the note of a call without sound (every reason starts so). */
export const AUDIO_OFF_NOTE = 'Audio: audio is off';

/** The note a call without sound carries in its summary: why, and how to give it sound. */
export const audioOffNote = (reason: AudioOffReason): string => `Audio: ${AUDIO_OFF[reason]}.`;

/** Whether the audio package is installed where this code runs (found, not loaded: it costs a file lookup). */
export function audioInstalled(): boolean {
  try {
    requireAt(import.meta.url).resolve(`${AUDIO_PACKAGE}/package.json`);
    return true;
  } catch {
    return false;
  }
}

let loading: Promise<AudioPort | undefined> | undefined;

/** The audio package, loaded once on first use; undefined when it is not installed. */
export function loadAudio(): Promise<AudioPort | undefined> {
  return (loading ??= import('voice-agent-audio').then(
    (m) => m as unknown as AudioPort,
    () => undefined,
  ));
}
