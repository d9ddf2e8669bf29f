// Voice activity detection on synthesized speech with known silences around it: the segments
// must match where the words are, live (in chunks, at another rate) as in one go, and through
// noise at 5 dB SNR. The model itself is checked frame by frame against onnxruntime-web.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { addNoise, concat, createVadStream, detectSpeech, interleave, noiseSamples, rms, speechLevel, speechProbabilities, synthesize, type Pcm, type VadEvent } from './index.js';

const reference = JSON.parse(readFileSync(new URL('./fixtures/silero-reference.json', import.meta.url), 'utf8')) as {
  recipe: { line: string; voice: 'customer'; leadSeconds: number; trailSeconds: number; snrDb: number; seed: number; color: 'pink' };
  probabilities: number[];
};

/** 1 s of silence, a line, 1.2 s of silence, another line, 1 s of silence; and where each line's words are. */
let call: Pcm;
let spoken: Array<{ start: number; end: number }>;

beforeAll(async () => {
  const first = await synthesize('I would like to move my appointment to next week.', { voice: 'customer' });
  const second = await synthesize('Thursday morning works best for me.', { voice: 'customer' });
  call = concat([1, first, 1.2, second, 1], 16000);
  const secondAt = 1 + first.duration + 1.2;
  const span = (words: Array<{ start: number; end: number }>, offset: number): { start: number; end: number } => ({
    start: offset + (words[0]?.start ?? 0),
    end: offset + (words.at(-1)?.end ?? 0),
  });
  spoken = [span(first.words, 1), span(second.words, secondAt)];
});

function expectSegmentsNearWords(segments: Array<{ start: number; end: number }>): void {
  expect(segments).toHaveLength(2);
  segments.forEach((segment, i) => {
    const words = spoken[i] as { start: number; end: number };
    // A start is found within a frame or two of the first word; an end after the last word's tail.
    expect(Math.abs(segment.start - words.start), `segment ${i} start`).toBeLessThan(0.15);
    expect(Math.abs(segment.end - words.end), `segment ${i} end`).toBeLessThan(0.25);
  });
}

describe('silero model', () => {
  it('gives the probabilities onnxruntime-web gives for the same model and audio (to 1e-4 per frame)', async () => {
    const r = reference.recipe;
    const speech = await synthesize(r.line, { voice: r.voice });
    const audio = addNoise(concat([r.leadSeconds, speech, r.trailSeconds], 16000), { snrDb: r.snrDb, seed: r.seed, color: r.color });
    const ours = await speechProbabilities(audio);
    expect(ours).toHaveLength(reference.probabilities.length);
    const worst = Math.max(...ours.map((p, i) => Math.abs(p - (reference.probabilities[i] as number))));
    expect(worst).toBeLessThan(1e-4);
    // The fixture holds speech and silence both, so agreeing means something.
    expect(Math.max(...reference.probabilities)).toBeGreaterThan(0.9);
    expect(Math.min(...reference.probabilities)).toBeLessThan(0.05);
  });
});

describe('detectSpeech', () => {
  it('finds each line between its silences, within a tolerance of where its words are', async () => {
    expectSegmentsNearWords(await detectSpeech(call));
  });

  it('finds nothing in silence, and refuses stereo audio', async () => {
    expect(await detectSpeech({ samples: new Int16Array(16000 * 2), sampleRate: 16000 })).toEqual([]);
    await expect(detectSpeech(interleave(call, call))).rejects.toThrow(/mono/);
  });

  it('still finds the speech under noise at 5 dB SNR, and the noise is at that SNR', async () => {
    const noisy = addNoise(call, { snrDb: 5, seed: 42, color: 'pink' });
    const added = { samples: noisy.samples.map((v, i) => v - (call.samples[i] as number)), sampleRate: 16000 };
    expect(20 * Math.log10(speechLevel(call) / rms(added))).toBeCloseTo(5, 1);
    expectSegmentsNearWords(await detectSpeech(noisy));
  });

  it('does not take noise alone for speech', async () => {
    const level = speechLevel(call) * 10 ** (-5 / 20);
    const noise = noiseSamples(16000 * 4, { seed: 3, level, color: 'pink' });
    expect(await detectSpeech({ samples: Int16Array.from(noise, (v) => Math.round(v * 32768)), sampleRate: 16000 })).toEqual([]);
  });
});

describe('createVadStream', () => {
  it('fed 20 ms chunks of 48 kHz audio, reports the same speech with times on the audio timeline', async () => {
    const { resample } = await import('./resample.js');
    const at48 = resample(call, 48000);
    const stream = await createVadStream({ sampleRate: 48000 });
    const events: VadEvent[] = [];
    for (let at = 0; at < at48.samples.length; at += 960) events.push(...stream.push(at48.samples.subarray(at, at + 960)));
    events.push(...stream.end());
    expect(stream.time).toBeCloseTo(at48.samples.length / 48000, 6);
    expect(events.map((e) => e.type)).toEqual(['speech-start', 'speech-end', 'speech-start', 'speech-end']);
    const batch = await detectSpeech(call);
    const streamed = [0, 2].map((i) => ({ start: (events[i] as VadEvent).time, end: (events[i + 1] as VadEvent).time }));
    streamed.forEach((s, i) => {
      expect(Math.abs(s.start - (batch[i] as { start: number }).start)).toBeLessThan(0.07);
      expect(Math.abs(s.end - (batch[i] as { end: number }).end)).toBeLessThan(0.07);
    });
    // An end is known only once the silence has lasted minSilenceSeconds (0.1 s by default).
    for (const e of events.filter((x) => x.type === 'speech-end')) expect(e.decidedAt - e.time).toBeGreaterThanOrEqual(0.1 - 0.03 - 1e-9);
    for (const e of events.filter((x) => x.type === 'speech-start')) expect(e.decidedAt).toBeGreaterThan(e.time);
  });

  it('ends speech only after a longer silence when asked (a pause mid-sentence stays one turn)', async () => {
    const line = await synthesize('My account number is', { voice: 'customer' });
    const rest = await synthesize('four four seven two.', { voice: 'customer' });
    const paused = concat([0.5, line, 0.8, rest, 0.5], 16000);
    expect(await detectSpeech(paused, { minSilenceSeconds: 0.4 })).toHaveLength(2);
    expect(await detectSpeech(paused, { minSilenceSeconds: 1.5 })).toHaveLength(1);
  });
});
