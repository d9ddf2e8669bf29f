// Loudness: RMS over a span or in windows (a volume meter), in full-scale units and dBFS.
import { sampleAt, type Pcm } from './pcm.js';

/** Root mean square of the mono samples from `start` to `end` seconds, 1 being full scale; 0 when empty. */
export function rms(pcm: Pcm, start = 0, end?: number): number {
  const from = Math.min(sampleAt(start, pcm.sampleRate), pcm.samples.length);
  const to = end === undefined ? pcm.samples.length : Math.min(sampleAt(end, pcm.sampleRate), pcm.samples.length);
  if (to <= from) return 0;
  let sum = 0;
  for (let i = from; i < to; i++) sum += (pcm.samples[i] as number) ** 2;
  return Math.sqrt(sum / (to - from)) / 32768;
}

/** A full-scale level in decibels (dBFS); -Infinity for silence. */
export function dbfs(level: number): number {
  return 20 * Math.log10(level);
}

/** The RMS of each window of `windowSeconds` (the last may be shorter): a level meter's readings. */
export function levels(pcm: Pcm, windowSeconds = 0.1): number[] {
  const n = Math.max(1, sampleAt(windowSeconds, pcm.sampleRate));
  const out: number[] = [];
  for (let from = 0; from < pcm.samples.length; from += n) out.push(rms(pcm, from / pcm.sampleRate, Math.min(from + n, pcm.samples.length) / pcm.sampleRate));
  return out;
}

/** How far below the loudest 20 ms window a window may be and still count as speech. */
const ACTIVE_RANGE_DB = 30;

/**
 * The level of the speech in the audio, its pauses left out: the RMS over the 20 ms windows
 * within 30 dB of the loudest one. This is what a signal-to-noise ratio is measured against.
 */
export function speechLevel(pcm: Pcm): number {
  const windows = levels(pcm, 0.02);
  const loudest = Math.max(0, ...windows);
  if (loudest === 0) return 0;
  const floor = loudest * 10 ** (-ACTIVE_RANGE_DB / 20);
  const active = windows.filter((w) => w >= floor);
  return Math.sqrt(active.reduce((sum, w) => sum + w * w, 0) / active.length);
}
