// voice-agent-audio: speech for both sides of a local call, voice activity detection, and the PCM
// and WAV tools around them. Importing it does no work: the synthesizer compiles on the first
// synthesis, the detector's weights load on the first detection (or both at once with `warm`).
import { fliteModule } from './flite.js';
import type * as self from './index.js';
import type { Pcm } from './pcm.js';
import { loadSileroWeights } from './silero.js';
import { createVadStream as streamOn, detectSpeech as detectOn, speechProbabilities as probabilitiesOn, type SpeechSegment, type VadOptions, type VadStream } from './vad.js';

export { synthesize, fliteVoiceOf, STAND_IN_VOICES, type Speech, type SynthesisOptions, type VoiceName } from './synthesize.js';
export { createSynthesizer, type Synthesizer, type Urgency } from './synthesizer.js';
export type { FliteVoice } from './flite.js';
export { wordsSpokenBy, tokensOf, type WordTiming } from './words.js';
export type { SpeechSegment, VadEvent, VadOptions, VadStream } from './vad.js';
export { channel, concat, cut, durationOf, fromFloat32, interleave, mix, sampleAt, silence, toFloat32, type Pcm } from './pcm.js';
export { createResampler, resample, type Resampler } from './resample.js';
export { decodeWav, encodeWav } from './wav.js';
export { dbfs, levels, rms, speechLevel } from './level.js';
export { addNoise, noiseSamples, seededRandom, type NoiseColor } from './noise.js';
export { detectDtmf, dtmfFrequencies, dtmfTones, goertzel, type DtmfKey } from './dtmf.js';

/** The spans of speech in mono audio at any sample rate (silero VAD). */
export async function detectSpeech(pcm: Pcm, options?: VadOptions): Promise<SpeechSegment[]> {
  return detectOn(await loadSileroWeights(), pcm, options);
}

/** A detector to feed live audio in chunks; events carry their time on the audio's timeline. */
export async function createVadStream(options?: VadOptions & { sampleRate?: number }): Promise<VadStream> {
  return streamOn(await loadSileroWeights(), options);
}

/** The probability of speech in each 32 ms frame of 16 kHz mono audio. */
export async function speechProbabilities(pcm: Pcm): Promise<number[]> {
  return probabilitiesOn(await loadSileroWeights(), pcm);
}

/** What loading took, in milliseconds (each 0 when it was already loaded). */
export interface WarmTimes {
  synthesizerMs: number;
  detectorMs: number;
}

/** Loads the synthesizer and the detector now (e.g. when a call starts) instead of on first use. */
export async function warm(): Promise<WarmTimes> {
  const time = async (load: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await load();
    return performance.now() - started;
  };
  const [synthesizerMs, detectorMs] = await Promise.all([time(fliteModule), time(loadSileroWeights)]);
  return { synthesizerMs, detectorMs };
}

/** The shape of this module, for a program that loads it with `import()` only when it is installed. */
export type AudioModule = typeof self;
