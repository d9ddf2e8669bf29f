// The PCM tools on tones whose every sample is known: joins, cuts, mixes, stereo, WAV files,
// resampling and levels.
import { describe, expect, it } from 'vitest';
import { channel, concat, createResampler, cut, dbfs, decodeWav, durationOf, encodeWav, goertzel, interleave, levels, mix, resample, rms, silence, type Pcm } from './index.js';

/** A sine of `frequency` Hz at `amplitude` (full scale 1) for `seconds`. */
function tone(frequency: number, seconds: number, sampleRate = 16000, amplitude = 0.5): Pcm {
  const samples = Int16Array.from({ length: Math.round(seconds * sampleRate) }, (_, i) => Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * frequency * i) / sampleRate)));
  return { samples, sampleRate };
}

describe('joining and cutting', () => {
  it('concat puts parts and seconds of silence one after another', () => {
    const joined = concat([tone(440, 0.5), 0.25, tone(880, 0.5)], 16000);
    expect(durationOf(joined)).toBeCloseTo(1.25, 6);
    expect(rms(joined, 0.5, 0.75)).toBe(0);
    expect(rms(joined, 0.75, 1.25)).toBeCloseTo(0.5 / Math.SQRT2, 2);
    expect(() => concat([tone(440, 0.1, 8000)], 16000)).toThrow(/16000 Hz.*8000 Hz/);
  });

  it('cut keeps the span asked for, clamped to the audio', () => {
    const a = tone(440, 1);
    expect(durationOf(cut(a, 0.25, 0.5))).toBeCloseTo(0.25, 6);
    expect(cut(a, 0.25, 0.5).samples[0]).toBe(a.samples[4000]);
    expect(durationOf(cut(a, 0.9, 5))).toBeCloseTo(0.1, 6);
    expect(durationOf(cut(a, 2))).toBe(0);
  });

  it('mix adds a track at an offset, with gain, clipping at full scale', () => {
    const base = silence(1, 16000);
    const mixed = mix(base, tone(1000, 0.5), { at: 0.25, gain: 0.5 });
    expect(durationOf(mixed)).toBeCloseTo(1, 6);
    expect(rms(mixed, 0, 0.25)).toBe(0);
    expect(rms(mixed, 0.25, 0.75)).toBeCloseTo(0.25 / Math.SQRT2, 2);
    const loud = mix(tone(100, 0.1, 16000, 0.9), tone(100, 0.1, 16000, 0.9));
    expect(Math.max(...loud.samples)).toBe(32767);
    expect(durationOf(mix(base, tone(1000, 1), { at: 0.5 }))).toBeCloseTo(1.5, 6);
  });

  it('interleave makes stereo (the shorter track padded), channel takes each side back', () => {
    const left = tone(440, 1);
    const right = tone(880, 0.5);
    const stereo = interleave(left, right);
    expect(stereo.channels).toBe(2);
    expect(durationOf(stereo)).toBeCloseTo(1, 6);
    expect(channel(stereo, 0).samples).toEqual(left.samples);
    expect(channel(stereo, 1).samples.subarray(0, 8000)).toEqual(right.samples);
    expect(rms(channel(stereo, 1), 0.5)).toBe(0);
  });
});

describe('WAV', () => {
  it('round-trips mono and stereo 16-bit audio, with the header a player reads', () => {
    for (const pcm of [tone(440, 0.3, 24000), interleave(tone(440, 0.3), tone(660, 0.2))]) {
      const bytes = encodeWav(pcm);
      const view = new DataView(bytes.buffer);
      expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('RIFF');
      expect(view.getUint32(24, true)).toBe(pcm.sampleRate);
      expect(view.getUint16(22, true)).toBe(pcm.channels ?? 1);
      const back = decodeWav(bytes);
      expect(back.samples).toEqual(pcm.samples);
      expect(back.sampleRate).toBe(pcm.sampleRate);
      expect(back.channels).toBe(pcm.channels ?? 1);
    }
  });

  it('says clearly what it cannot read', () => {
    expect(() => decodeWav(new TextEncoder().encode('hello'))).toThrow(/not a WAV file/);
    const float = encodeWav(tone(440, 0.01));
    new DataView(float.buffer).setUint16(20, 3, true);
    expect(() => decodeWav(float)).toThrow(/only 16-bit integer PCM/);
  });
});

describe('resample', () => {
  it('keeps a tone at its frequency and level, up and down, whole or streamed in chunks', () => {
    const source = tone(1000, 1);
    for (const rate of [8000, 22050, 24000, 48000]) {
      const out = resample(source, rate);
      expect(out.sampleRate).toBe(rate);
      expect(durationOf(out)).toBeCloseTo(1, 2);
      const middle = cut(out, 0.2, 0.8);
      expect(rms(middle)).toBeCloseTo(0.5 / Math.SQRT2, 2);
      // Nearly all of the power is still at 1 kHz.
      const power = goertzel(middle.samples, rate, 1000);
      expect(power / (rms(middle) * 32768) ** 2).toBeGreaterThan(0.2);
    }
    const resampler = createResampler(16000, 48000);
    const chunks: Float32Array[] = [];
    for (let at = 0; at < source.samples.length; at += 333) chunks.push(resampler.push(source.samples.subarray(at, at + 333)));
    chunks.push(resampler.flush());
    const streamed = Int16Array.from(
      chunks.flatMap((c) => [...c]),
      Math.round,
    );
    expect(streamed).toEqual(resample(source, 48000).samples);
  });

  it('removes what the lower rate cannot carry', () => {
    const high = resample(tone(6000, 1), 8000);
    expect(rms(cut(high, 0.2, 0.8))).toBeLessThan(0.01);
  });
});

describe('levels', () => {
  it('measures RMS and dBFS, and a meter reading per window', () => {
    const a = tone(440, 1, 16000, 0.5);
    expect(rms(a)).toBeCloseTo(0.3536, 3);
    expect(dbfs(rms(a))).toBeCloseTo(-9.03, 1);
    expect(dbfs(0)).toBe(Number.NEGATIVE_INFINITY);
    const meter = levels(concat([a, 0.5], 16000), 0.1);
    expect(meter).toHaveLength(15);
    expect(meter.slice(0, 10).every((v) => v > 0.3)).toBe(true);
    expect(meter.slice(10).every((v) => v === 0)).toBe(true);
  });
});
