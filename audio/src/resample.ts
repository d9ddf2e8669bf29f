// Sample-rate conversion: a windowed-sinc filter, exact for rational rate ratios (each output
// sample falls on one of a fixed set of phases between input samples, whose kernels are computed
// once), so it runs as well on a live stream in chunks as on a whole recording.
import type { Pcm } from './pcm.js';

/** Kernel half-width in input samples at the lower of the two rates. */
const HALF_TAPS = 16;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** A resampler fed in chunks: each push returns the output samples it completes. */
export interface Resampler {
  push(chunk: ArrayLike<number>): Float32Array;
  /** The output left once the input has ended (its last samples, filtered against silence after them). */
  flush(): Float32Array;
}

/** A streaming resampler from `from` Hz to `to` Hz (whole numbers). */
export function createResampler(from: number, to: number): Resampler {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from <= 0 || to <= 0) throw new Error(`sample rates must be positive whole numbers (got ${from} and ${to})`);
  const g = gcd(from, to);
  const p = from / g;
  const q = to / g;
  const cutoff = Math.min(1, to / from);
  const half = Math.ceil(HALF_TAPS / cutoff);
  const kernels = Array.from({ length: q }, (_, phase) => {
    const frac = phase / q;
    const kernel = new Float64Array(2 * half);
    let sum = 0;
    for (let t = 0; t < 2 * half; t++) {
      const d = t - half + 1 - frac;
      const x = cutoff * d;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const window = Math.abs(d) < half ? 0.5 * (1 + Math.cos((Math.PI * d) / half)) : 0;
      kernel[t] = sinc * window;
      sum += kernel[t] as number;
    }
    for (let t = 0; t < kernel.length; t++) kernel[t] = (kernel[t] as number) / sum;
    return kernel;
  });
  let buffer = new Float64Array(0);
  let bufferStart = 0;
  let received = 0;
  let next = 0;

  const produce = (limit: number, ended: boolean): Float32Array => {
    // How many outputs the input so far completes (all of them once it has ended).
    const lastBase = ended ? Number.POSITIVE_INFINITY : received - 1 - half;
    let count = 0;
    while (next + count < limit && Math.floor(((next + count) * p) / q) <= lastBase) count++;
    const out = new Float32Array(count);
    for (let n = 0; n < count; n++, next++) {
      const base = Math.floor((next * p) / q);
      const kernel = kernels[(next * p) % q] as Float64Array;
      const first = base - half + 1 - bufferStart;
      let acc = 0;
      const from = Math.max(0, -first);
      const to = Math.min(kernel.length, buffer.length - first);
      for (let t = from; t < to; t++) acc += (buffer[first + t] as number) * (kernel[t] as number);
      out[n] = acc;
    }
    // Keep what the next output's kernel still reaches.
    const keepFrom = Math.max(bufferStart, Math.floor((next * p) / q) - half + 1);
    if (keepFrom > bufferStart) {
      buffer = buffer.slice(keepFrom - bufferStart);
      bufferStart = keepFrom;
    }
    return out;
  };

  return {
    push(chunk) {
      const grown = new Float64Array(buffer.length + chunk.length);
      grown.set(buffer);
      for (let i = 0; i < chunk.length; i++) grown[buffer.length + i] = chunk[i] as number;
      buffer = grown;
      received += chunk.length;
      return produce(Number.POSITIVE_INFINITY, false);
    },
    flush() {
      return produce(Math.ceil((received * q) / p), true);
    },
  };
}

/** The mono audio at another sample rate. */
export function resample(pcm: Pcm, sampleRate: number): Pcm {
  if ((pcm.channels ?? 1) !== 1) throw new Error('resample takes mono audio');
  if (sampleRate === pcm.sampleRate) return { samples: pcm.samples.slice(), sampleRate };
  const resampler = createResampler(pcm.sampleRate, sampleRate);
  const head = resampler.push(pcm.samples);
  const tail = resampler.flush();
  const samples = new Int16Array(head.length + tail.length);
  const put = (values: Float32Array, at: number): void => {
    for (let i = 0; i < values.length; i++) samples[at + i] = Math.max(-32768, Math.min(32767, Math.round(values[i] as number)));
  };
  put(head, 0);
  put(tail, head.length);
  return { samples, sampleRate };
}
