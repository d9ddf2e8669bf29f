// Voice activity detection on silero's per-frame speech probabilities, the way silero's own
// VADIterator and get_speech_timestamps decide: speech starts on a frame at or above `threshold`,
// ends once the probability has stayed below `threshold - 0.15` for `minSilenceSeconds`.
// Every time is on the audio's own timeline (samples fed so far), never the wall clock.
import { durationOf, type Pcm } from './pcm.js';
import { createResampler, type Resampler } from './resample.js';
import { FRAME, Silero, type SileroWeights } from './silero.js';

const RATE = 16000;
const FRAME_SECONDS = FRAME / RATE;

/** How speech is told from silence. */
export interface VadOptions {
  /** Probability at or above which a frame is speech (silero's default 0.5). */
  threshold?: number;
  /** Probability below which a frame counts towards the end of speech (default threshold - 0.15). */
  negativeThreshold?: number;
  /** Silence that ends speech (default 0.1 s, silero's). A speech-end is known this long after it. */
  minSilenceSeconds?: number;
  /** Speech shorter than this is dropped from `detectSpeech` segments (default 0.25 s). */
  minSpeechSeconds?: number;
  /** Added before each start and after each end (default 0.03 s). */
  speechPadSeconds?: number;
}

/** A span of speech, in seconds from the start of the audio. */
export interface SpeechSegment {
  start: number;
  end: number;
}

/** A boundary of speech: `time` where it lies in the audio, `decidedAt` the audio time by which it could be known. */
export interface VadEvent {
  type: 'speech-start' | 'speech-end';
  time: number;
  decidedAt: number;
}

/** A detector fed audio as it arrives (a microphone, a call's customer channel). */
export interface VadStream {
  /** Feeds samples (16-bit, or floats in [-1, 1]); returns the events they complete. */
  push(samples: Int16Array | Float32Array): VadEvent[];
  /** The input has ended: closes open speech. */
  end(): VadEvent[];
  /** Seconds of audio fed so far. */
  readonly time: number;
  /** Whether speech is going on at `time`. */
  readonly speaking: boolean;
  /** The probability of speech in the last frame. */
  readonly probability: number;
}

/** A streaming detector over audio at `sampleRate` (resampled to 16 kHz for the model). */
export function createVadStream(weights: SileroWeights, options: VadOptions & { sampleRate?: number } = {}): VadStream {
  const model = new Silero(weights);
  const threshold = options.threshold ?? 0.5;
  const negative = options.negativeThreshold ?? Math.max(0.01, threshold - 0.15);
  const minSilence = options.minSilenceSeconds ?? 0.1;
  const pad = options.speechPadSeconds ?? 0.03;
  const sampleRate = options.sampleRate ?? RATE;
  const resampler: Resampler | undefined = sampleRate === RATE ? undefined : createResampler(sampleRate, RATE);
  const pending = new Float32Array(FRAME);
  let filled = 0;
  let frames = 0;
  let fed = 0;
  let speaking = false;
  let silenceFrom: number | undefined;
  let probability = 0;

  const onFrame = (events: VadEvent[]): void => {
    const start = frames * FRAME_SECONDS;
    const end = start + FRAME_SECONDS;
    frames++;
    probability = model.process(pending);
    if (probability >= threshold) {
      silenceFrom = undefined;
      if (!speaking) {
        speaking = true;
        events.push({ type: 'speech-start', time: Math.max(0, start - pad), decidedAt: end });
      }
    } else if (speaking && probability < negative) {
      silenceFrom ??= start;
      if (end - silenceFrom >= minSilence - 1e-9) {
        speaking = false;
        events.push({ type: 'speech-end', time: Math.min(silenceFrom + pad, end), decidedAt: end });
        silenceFrom = undefined;
      }
    }
  };

  const feed = (floats: ArrayLike<number>, events: VadEvent[]): void => {
    for (let i = 0; i < floats.length; i++) {
      pending[filled++] = floats[i] as number;
      if (filled === FRAME) {
        onFrame(events);
        filled = 0;
      }
    }
  };

  return {
    push(samples) {
      fed += samples.length;
      const floats = samples instanceof Int16Array ? Float32Array.from(samples, (v) => v / 32768) : samples;
      const events: VadEvent[] = [];
      feed(resampler ? resampler.push(floats) : floats, events);
      return events;
    },
    end() {
      const events: VadEvent[] = [];
      if (resampler) feed(resampler.flush(), events);
      const time = fed / sampleRate;
      if (speaking) events.push({ type: 'speech-end', time: silenceFrom === undefined ? time : Math.min(silenceFrom + pad, time), decidedAt: time });
      speaking = false;
      return events;
    },
    get time() {
      return fed / sampleRate;
    },
    get speaking() {
      return speaking;
    },
    get probability() {
      return probability;
    },
  };
}

/** The spans of speech in mono audio (any sample rate), shorter ones than `minSpeechSeconds` left out. */
export function detectSpeech(weights: SileroWeights, pcm: Pcm, options: VadOptions = {}): SpeechSegment[] {
  if ((pcm.channels ?? 1) !== 1) throw new Error('detectSpeech takes mono audio');
  const stream = createVadStream(weights, { ...options, sampleRate: pcm.sampleRate });
  const events = [...stream.push(pcm.samples), ...stream.end()];
  const segments: SpeechSegment[] = [];
  for (const e of events) {
    if (e.type === 'speech-start') segments.push({ start: e.time, end: e.time });
    else if (segments.length) (segments.at(-1) as SpeechSegment).end = Math.min(e.time, durationOf(pcm));
  }
  const minSpeech = options.minSpeechSeconds ?? 0.25;
  return segments.filter((s) => s.end - s.start >= minSpeech);
}

/** The probability of speech in each 32 ms frame of 16 kHz mono audio (for tuning thresholds). */
export function speechProbabilities(weights: SileroWeights, pcm: Pcm): number[] {
  if (pcm.sampleRate !== RATE || (pcm.channels ?? 1) !== 1) throw new Error('speechProbabilities takes 16 kHz mono audio');
  const model = new Silero(weights);
  const out: number[] = [];
  for (let at = 0; at + FRAME <= pcm.samples.length; at += FRAME) out.push(model.process(Float32Array.from(pcm.samples.subarray(at, at + FRAME), (v) => v / 32768)));
  return out;
}
