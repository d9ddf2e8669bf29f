// Synthesis is checked by ear, by a recogniser that has never seen our code (pocketsphinx), and
// its word timings by cutting the audio at a word's end and hearing exactly the words before it.
import { describe, expect, it } from 'vitest';
import { cut, encodeWav, rms, synthesize, wordsSpokenBy } from './index.js';
import { grammarWords, pocketsphinxMissing, recognise, skipRecognition } from './recognise.test-support.js';

const LINE = 'Hello there, Mr. Smith. I would like to change my booking to Tuesday afternoon, please.';
// Decoys differ from the line by one word, or are other lines a call could hold.
const DECOYS = [
  'hello there mister smith i would like to change my booking to thursday afternoon please',
  'hello there mister smith i would like to cancel my booking to tuesday afternoon please',
  'please cancel my order for friday',
  'what time does the store open tomorrow',
];

/** The median pitch (Hz) of the loud 40 ms frames, from the autocorrelation peak between 70 and 400 Hz. */
function medianPitch(samples: Int16Array, rate = 16000): number {
  const size = 640;
  const pitches: number[] = [];
  for (let at = 0; at + size <= samples.length; at += size) {
    const frame = samples.subarray(at, at + size);
    const energy = frame.reduce((sum, v) => sum + v * v, 0);
    if (energy / size < 1000 ** 2) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = Math.floor(rate / 400); lag <= Math.ceil(rate / 70); lag++) {
      let r = 0;
      for (let i = 0; i + lag < size; i++) r += (frame[i] as number) * (frame[i + lag] as number);
      if (r > best) [best, bestLag] = [r, lag];
    }
    if (bestLag && best > 0.3 * energy) pitches.push(rate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}

describe('synthesize', () => {
  it('gives 16-bit mono PCM at 16 kHz with its duration and one timing per word, in order and within the audio', async () => {
    const speech = await synthesize(LINE);
    expect(speech.sampleRate).toBe(16000);
    expect(speech.samples).toBeInstanceOf(Int16Array);
    expect(speech.duration).toBeCloseTo(speech.samples.length / 16000, 9);
    expect(speech.duration).toBeGreaterThan(3);
    expect(speech.words.map((w) => w.word)).toEqual(LINE.split(' '));
    let previous = 0;
    for (const w of speech.words) {
      expect(w.start).toBeGreaterThanOrEqual(previous);
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.end).toBeLessThanOrEqual(speech.duration);
      previous = w.end;
    }
    // The audio is loud where the words are and near silent before the first.
    const first = speech.words[0] as { start: number };
    expect(rms(speech, 0, first.start)).toBeLessThan(0.01);
    expect(rms(speech, first.start, speech.words.at(-1)?.end)).toBeGreaterThan(0.03);
  });

  it('says the same text the same way every time (a run repeats exactly)', async () => {
    const [a, b] = await Promise.all([synthesize('Your parcel arrives on Tuesday.'), synthesize('Your parcel arrives on Tuesday.')]);
    expect(Buffer.from(a.samples.buffer).equals(Buffer.from(b.samples.buffer))).toBe(true);
    expect(a.words).toEqual(b.words);
  });

  it('has two different stand-in voices for the assistant and the customer', async () => {
    const [assistant, customer] = await Promise.all([synthesize('Thanks for calling.', { voice: 'assistant' }), synthesize('Thanks for calling.', { voice: 'customer' })]);
    expect(assistant.voice).toBe('slt');
    expect(customer.voice).toBe('rms');
    // The female voice speaks at a clearly higher pitch than the male one.
    expect(medianPitch(assistant.samples)).toBeGreaterThan(150);
    expect(medianPitch(customer.samples)).toBeLessThan(140);
  });

  it('resamples to a higher rate on request and keeps the word times', async () => {
    const [at16, at48] = await Promise.all([synthesize('Good morning.'), synthesize('Good morning.', { sampleRate: 48000 })]);
    expect(at48.sampleRate).toBe(48000);
    expect(at48.duration).toBeCloseTo(at16.duration, 3);
    expect(at48.words).toEqual(at16.words);
  });

  it('gives empty audio for text with nothing to say, and refuses a voice or rate it does not have', async () => {
    const empty = await synthesize(' — ');
    expect(empty.samples.length).toBe(0);
    expect(empty.words).toEqual([{ word: '—', start: 0, end: 0 }]);
    await expect(synthesize('Hi.', { voice: 'nobody' as 'slt' })).rejects.toThrow(/unknown voice "nobody"/);
    await expect(synthesize('Hi.', { sampleRate: 8000 })).rejects.toThrow(/16000 or more/);
  });
});

describe.skipIf(skipRecognition)(`an independent recogniser hears it${pocketsphinxMissing ? ` (skipped: ${pocketsphinxMissing})` : ''}`, () => {
  it('is installed (CI installs it; elsewhere these tests skip without it)', () => {
    expect(pocketsphinxMissing).toBeUndefined();
  });

  it.each(['assistant', 'customer'] as const)('the %s voice is heard as the line, not as a decoy one word away', async (voice) => {
    const speech = await synthesize(LINE, { voice });
    expect(recognise(encodeWav(speech), [LINE, ...DECOYS])).toBe(grammarWords(LINE));
  });

  it('audio cut at a word timing holds exactly the words said by then', async () => {
    const speech = await synthesize(LINE, { voice: 'assistant' });
    const words = speech.words.map((w) => grammarWords(w.word)).flatMap((w) => w.split(' '));
    // Every prefix of the line is a phrase the recogniser may choose.
    const prefixes = words.map((_, k) => words.slice(0, k + 1).join(' '));
    for (const k of [3, 7, 11]) {
      const at = (speech.words[k - 1] as { end: number }).end;
      const spoken = wordsSpokenBy(speech.words, at);
      expect(spoken).toHaveLength(k);
      const heard = recognise(encodeWav(cut(speech, 0, at)), prefixes);
      expect(heard, `cut at ${at.toFixed(2)} s after "${spoken.at(-1)?.word}"`).toBe(grammarWords(spoken.map((w) => w.word).join(' ')));
    }
  });
});
