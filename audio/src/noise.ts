// Background noise at a chosen signal-to-noise ratio, from a seed: the same seed gives the same
// noise, so a noisy run repeats exactly.
import { speechLevel } from './level.js';
import { mix, type Pcm } from './pcm.js';

/** White (flat) or pink (falling 3 dB an octave, closer to a street or a room) noise. */
export type NoiseColor = 'white' | 'pink';

/** A seeded generator of uniform numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` samples of noise with an RMS of exactly `level` (full scale 1), as floats. */
export function noiseSamples(length: number, options: { seed: number; level: number; color?: NoiseColor }): Float64Array {
  const random = seededRandom(options.seed);
  const out = new Float64Array(length);
  // Paul Kellet's economy pink filter over Gaussian white noise.
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < length; i++) {
    const white = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    if (options.color === 'pink') {
      b0 = 0.99765 * b0 + white * 0.099046;
      b1 = 0.963 * b1 + white * 0.2965164;
      b2 = 0.57 * b2 + white * 1.0526913;
      out[i] = b0 + b1 + b2 + white * 0.1848;
    } else out[i] = white;
  }
  let sum = 0;
  for (const v of out) sum += v * v;
  const scale = sum > 0 ? options.level / Math.sqrt(sum / length) : 0;
  for (let i = 0; i < length; i++) out[i] = (out[i] as number) * scale;
  return out;
}

/**
 * The audio with noise added over its whole length, `snrDb` decibels below the level of its
 * speech (`speechLevel`: its pauses do not lower the reference). Deterministic for a seed.
 */
export function addNoise(pcm: Pcm, options: { snrDb: number; seed: number; color?: NoiseColor }): Pcm {
  const level = speechLevel(pcm) * 10 ** (-options.snrDb / 20);
  const noise = noiseSamples(pcm.samples.length, { seed: options.seed, level, ...(options.color ? { color: options.color } : {}) });
  const samples = new Int16Array(noise.length);
  for (let i = 0; i < noise.length; i++) samples[i] = Math.max(-32768, Math.min(32767, Math.round((noise[i] as number) * 32768)));
  return mix(pcm, { samples, sampleRate: pcm.sampleRate });
}
