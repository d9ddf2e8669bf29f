// 16-bit PCM: the one audio shape of this package. Samples are signed 16-bit integers; stereo is
// interleaved (left, right, left, ...). Times are seconds, turned into sample counts by rounding.

/** Audio as 16-bit samples. */
export interface Pcm {
  /** Mono samples, or interleaved left/right pairs when `channels` is 2. */
  samples: Int16Array;
  sampleRate: number;
  /** 1 (the default) or 2. */
  channels?: 1 | 2;
}

/** The sample index nearest to `seconds`. */
export function sampleAt(seconds: number, sampleRate: number): number {
  return Math.max(0, Math.round(seconds * sampleRate));
}

/** Length in seconds. */
export function durationOf(pcm: Pcm): number {
  return pcm.samples.length / (pcm.channels ?? 1) / pcm.sampleRate;
}

/** `seconds` of silence. */
export function silence(seconds: number, sampleRate: number): Pcm {
  return { samples: new Int16Array(sampleAt(seconds, sampleRate)), sampleRate };
}

function mono(pcm: Pcm, what: string): void {
  if ((pcm.channels ?? 1) !== 1) throw new Error(`${what} takes mono audio`);
}

function sameRate(parts: readonly Pcm[], sampleRate: number, what: string): void {
  for (const p of parts) if (p.sampleRate !== sampleRate) throw new Error(`${what}: every part must be at ${sampleRate} Hz (got ${p.sampleRate} Hz; resample it first)`);
}

/** The parts one after another; a number is that many seconds of silence. */
export function concat(parts: ReadonlyArray<Pcm | number>, sampleRate: number): Pcm {
  const audio = parts.map((p) => (typeof p === 'number' ? silence(p, sampleRate) : p));
  sameRate(audio, sampleRate, 'concat');
  audio.forEach((p) => mono(p, 'concat'));
  const samples = new Int16Array(audio.reduce((n, p) => n + p.samples.length, 0));
  let at = 0;
  for (const p of audio) {
    samples.set(p.samples, at);
    at += p.samples.length;
  }
  return { samples, sampleRate };
}

/** The audio from `start` to `end` seconds (to its end when omitted). */
export function cut(pcm: Pcm, start: number, end?: number): Pcm {
  mono(pcm, 'cut');
  const from = Math.min(sampleAt(start, pcm.sampleRate), pcm.samples.length);
  const to = end === undefined ? pcm.samples.length : Math.min(Math.max(from, sampleAt(end, pcm.sampleRate)), pcm.samples.length);
  return { samples: pcm.samples.slice(from, to), sampleRate: pcm.sampleRate };
}

function clip(value: number): number {
  return value > 32767 ? 32767 : value < -32768 ? -32768 : Math.round(value);
}

/**
 * `overlay` added onto `base` from `at` seconds, scaled by `gain`, clipped to 16 bits; the result
 * is as long as whichever ends later.
 */
export function mix(base: Pcm, overlay: Pcm, options: { at?: number; gain?: number } = {}): Pcm {
  mono(base, 'mix');
  mono(overlay, 'mix');
  sameRate([overlay], base.sampleRate, 'mix');
  const offset = sampleAt(options.at ?? 0, base.sampleRate);
  const gain = options.gain ?? 1;
  const samples = new Int16Array(Math.max(base.samples.length, offset + overlay.samples.length));
  samples.set(base.samples);
  for (let i = 0; i < overlay.samples.length; i++) samples[offset + i] = clip((samples[offset + i] as number) + (overlay.samples[i] as number) * gain);
  return { samples, sampleRate: base.sampleRate };
}

/** Two mono tracks as one stereo track (the shorter padded with silence): customer left, assistant right on a call. */
export function interleave(left: Pcm, right: Pcm): Pcm {
  mono(left, 'interleave');
  mono(right, 'interleave');
  sameRate([right], left.sampleRate, 'interleave');
  const frames = Math.max(left.samples.length, right.samples.length);
  const samples = new Int16Array(frames * 2);
  for (let i = 0; i < frames; i++) {
    samples[2 * i] = left.samples[i] ?? 0;
    samples[2 * i + 1] = right.samples[i] ?? 0;
  }
  return { samples, sampleRate: left.sampleRate, channels: 2 };
}

/** One channel (0 left, 1 right) of a stereo track. */
export function channel(stereo: Pcm, index: 0 | 1): Pcm {
  if (stereo.channels !== 2) throw new Error('channel takes stereo audio');
  const samples = new Int16Array(stereo.samples.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = stereo.samples[2 * i + index] as number;
  return { samples, sampleRate: stereo.sampleRate };
}

/** Samples as floats in [-1, 1), as speech models and Web Audio take them. */
export function toFloat32(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] as number) / 32768;
  return out;
}

/** Floats in [-1, 1] as 16-bit samples (clipped). */
export function fromFloat32(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = clip((samples[i] as number) * 32768);
  return out;
}
