// Keypad tones (DTMF): each key is one low (row) and one high (column) frequency played together.
// Detection runs the Goertzel filter on each of the eight frequencies.
import { sampleAt, type Pcm } from './pcm.js';

const ROWS = [697, 770, 852, 941] as const;
const COLUMNS = [1209, 1336, 1477, 1633] as const;
const KEYS = ['123A', '456B', '789C', '*0#D'] as const;

/** The two frequencies (Hz) of a key: 0-9, *, #, A-D. */
export function dtmfFrequencies(key: string): [low: number, high: number] {
  const upper = key.toUpperCase();
  for (let row = 0; row < 4; row++) {
    const column = (KEYS[row] as string).indexOf(upper);
    if (column >= 0 && upper.length === 1) return [ROWS[row] as number, COLUMNS[column] as number];
  }
  throw new Error(`"${key}" is not a keypad key (0-9, *, #, A-D)`);
}

/** The tones of `digits` (e.g. "123#"), each `toneSeconds` long with `gapSeconds` of silence after it. */
export function dtmfTones(digits: string, options: { sampleRate?: number; toneSeconds?: number; gapSeconds?: number; level?: number } = {}): Pcm {
  const sampleRate = options.sampleRate ?? 16000;
  const tone = sampleAt(options.toneSeconds ?? 0.1, sampleRate);
  const gap = sampleAt(options.gapSeconds ?? 0.1, sampleRate);
  // Each of the two sines at half the level, so their sum peaks at `level` of full scale.
  const amplitude = ((options.level ?? 0.5) * 32767) / 2;
  const samples = new Int16Array(digits.length * (tone + gap));
  [...digits].forEach((key, k) => {
    const [low, high] = dtmfFrequencies(key);
    const at = k * (tone + gap);
    for (let i = 0; i < tone; i++) {
      const t = i / sampleRate;
      samples[at + i] = Math.round(amplitude * (Math.sin(2 * Math.PI * low * t) + Math.sin(2 * Math.PI * high * t)));
    }
  });
  return { samples, sampleRate };
}

/** The power of `frequency` in the samples (Goertzel), normalised by their count. */
export function goertzel(samples: ArrayLike<number>, sampleRate: number, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = (samples[i] as number) + coefficient * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (s1 * s1 + s2 * s2 - coefficient * s1 * s2) / (samples.length * samples.length);
}

/** A key heard in the audio, from `start` to `end` seconds. */
export interface DtmfKey {
  key: string;
  start: number;
  end: number;
}

/** The keys pressed in mono audio, in order: 20 ms blocks where one row and one column tone stand out. */
export function detectDtmf(pcm: Pcm): DtmfKey[] {
  const block = sampleAt(0.02, pcm.sampleRate);
  const found: DtmfKey[] = [];
  for (let from = 0; from + block <= pcm.samples.length; from += block) {
    const chunk = pcm.samples.subarray(from, from + block);
    let energy = 0;
    for (const v of chunk) energy += v * v;
    energy /= block;
    const rows = ROWS.map((f) => goertzel(chunk, pcm.sampleRate, f));
    const columns = COLUMNS.map((f) => goertzel(chunk, pcm.sampleRate, f));
    const row = rows.indexOf(Math.max(...rows));
    const column = columns.indexOf(Math.max(...columns));
    // A pure tone of amplitude A has Goertzel power A²/4 and mean energy A²/2: the two tones must
    // carry most of the block's energy, and each must stand well above the others of its group.
    const tonal = ((rows[row] as number) + (columns[column] as number)) * 2 > 0.6 * energy;
    const clear = rows.every((p, i) => i === row || p * 10 < (rows[row] as number)) && columns.every((p, i) => i === column || p * 10 < (columns[column] as number));
    if (energy < 1e4 || !tonal || !clear) continue;
    const key = (KEYS[row] as string)[column] as string;
    const start = from / pcm.sampleRate;
    const end = (from + block) / pcm.sampleRate;
    const last = found.at(-1);
    if (last && last.key === key && Math.abs(last.end - start) < 1e-9) last.end = end;
    else found.push({ key, start, end });
  }
  // A key shorter than two blocks is a blip, not a press.
  return found.filter((k) => k.end - k.start >= 0.039);
}
