// Keypad tones and seeded noise: the frequencies each key must have (measured with Goertzel
// filters), detection back from audio, and noise that repeats for a seed at the SNR asked for.
import { describe, expect, it } from 'vitest';
import { addNoise, concat, cut, detectDtmf, dtmfFrequencies, dtmfTones, goertzel, noiseSamples, rms, speechLevel, type Pcm } from './index.js';

const STANDARD: Record<string, [number, number]> = {
  '1': [697, 1209],
  '2': [697, 1336],
  '3': [697, 1477],
  A: [697, 1633],
  '4': [770, 1209],
  '5': [770, 1336],
  '6': [770, 1477],
  B: [770, 1633],
  '7': [852, 1209],
  '8': [852, 1336],
  '9': [852, 1477],
  C: [852, 1633],
  '*': [941, 1209],
  '0': [941, 1336],
  '#': [941, 1477],
  D: [941, 1633],
};
const ALL = [697, 770, 852, 941, 1209, 1336, 1477, 1633];

describe('DTMF', () => {
  it.each(Object.entries(STANDARD))('key %s is %j Hz: those two carry the tone, the other six nothing', (key, [low, high]) => {
    expect(dtmfFrequencies(key)).toEqual([low, high]);
    const tone = dtmfTones(key, { toneSeconds: 0.1, gapSeconds: 0 });
    const power = Object.fromEntries(ALL.map((f) => [f, goertzel(tone.samples, 16000, f)]));
    for (const f of ALL) {
      if (f === low || f === high) expect(power[f]).toBeGreaterThan(1e6);
      else expect(power[f]).toBeLessThan((power[low] as number) / 100);
    }
  });

  it('detects the keys pressed, in order, with their times, also through noise', () => {
    const keys = dtmfTones('123#', { toneSeconds: 0.1, gapSeconds: 0.1 });
    const call = concat([0.5, keys, 0.5], 16000);
    for (const audio of [call, addNoise(call, { snrDb: 10, seed: 1 })]) {
      const found = detectDtmf(audio);
      expect(found.map((k) => k.key).join('')).toBe('123#');
      found.forEach((k, i) => {
        expect(Math.abs(k.start - (0.5 + 0.2 * i))).toBeLessThanOrEqual(0.02);
        expect(k.end - k.start).toBeGreaterThanOrEqual(0.06);
      });
    }
  });

  it('hears no key in silence or noise, and refuses a key the keypad does not have', () => {
    expect(detectDtmf({ samples: new Int16Array(16000), sampleRate: 16000 })).toEqual([]);
    const noise = noiseSamples(16000, { seed: 5, level: 0.1 });
    expect(detectDtmf({ samples: Int16Array.from(noise, (v) => Math.round(v * 32768)), sampleRate: 16000 })).toEqual([]);
    expect(() => dtmfTones('12x')).toThrow(/"x" is not a keypad key/);
  });
});

describe('noise', () => {
  const voiceLike: Pcm = concat([0.5, dtmfTones('5', { toneSeconds: 1, gapSeconds: 0 }), 0.5], 16000);

  it('is the same for the same seed and different for another', () => {
    const a = addNoise(voiceLike, { snrDb: 5, seed: 11 });
    expect(addNoise(voiceLike, { snrDb: 5, seed: 11 }).samples).toEqual(a.samples);
    expect(addNoise(voiceLike, { snrDb: 5, seed: 12 }).samples).not.toEqual(a.samples);
  });

  it.each([0, 5, 20])('is %d dB below the speech level (its silences not counted), over the whole audio', (snrDb) => {
    const noisy = addNoise(voiceLike, { snrDb, seed: 2 });
    const added: Pcm = { samples: noisy.samples.map((v, i) => v - (voiceLike.samples[i] as number)), sampleRate: 16000 };
    expect(20 * Math.log10(speechLevel(voiceLike) / rms(added))).toBeCloseTo(snrDb, 1);
    expect(rms(cut(noisy, 0, 0.4))).toBeGreaterThan(0);
  });

  it('pink noise has more power at low frequencies than white noise of the same level', () => {
    const ratio = (color: 'white' | 'pink'): number => {
      const n = noiseSamples(16000, { seed: 9, level: 0.1, color });
      return goertzel(n, 16000, 100) / goertzel(n, 16000, 4000);
    };
    expect(ratio('pink')).toBeGreaterThan(ratio('white') * 5);
  });
});
