import { describe, expect, it } from 'vitest';
import { downsampler } from './local-uplink.js';

/** A sine at `hz`, `seconds` long, at `rate`. */
const sine = (hz: number, seconds: number, rate: number): Float32Array => Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));

describe("the microphone's audio, downsampled for the emulator", () => {
  it('turns 48 kHz pieces of any size into 16 kHz 16-bit audio, none lost between pieces', () => {
    const down = downsampler(48000, 16000);
    const input = sine(440, 1, 48000);
    const out: Int16Array[] = [];
    // Pieces of odd sizes, as an audio callback may give them.
    for (let at = 0; at < input.length; at += 2047) out.push(down(input.subarray(at, at + 2047)));
    const total = out.reduce((n, o) => n + o.length, 0);
    expect(total).toBe(16000);
    const peak = Math.max(...out.flatMap((o) => Array.from(o, Math.abs)));
    // A 440 Hz tone at half scale keeps its level (the averaging only takes off what 16 kHz cannot carry).
    expect(peak / 32767).toBeGreaterThan(0.45);
    expect(peak / 32767).toBeLessThan(0.51);
  });

  it('works from rates that are no multiple of 16 kHz (44.1 kHz)', () => {
    const down = downsampler(44100, 16000);
    const total = [0, 1, 2, 3].reduce((n) => n + down(sine(300, 0.25, 44100)).length, 0);
    expect(Math.abs(total - 16000)).toBeLessThanOrEqual(1);
  });
});
