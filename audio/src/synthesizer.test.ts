// The synthesizer off the main thread: the same speech whether made on threads or on this one, and
// a text someone waits for said before texts asked for ahead.
import { afterEach, describe, expect, it } from 'vitest';
import { createSynthesizer, type Synthesizer } from './synthesizer.js';

const open: Synthesizer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const made = (threads: number): Synthesizer => {
  const s = createSynthesizer({ threads });
  open.push(s);
  return s;
};

describe('createSynthesizer', () => {
  it('makes the same speech on worker threads as on this thread, with every word timed in order', async () => {
    const text = 'Your table for four is booked, at seven thirty this evening. Is there anything else I can help you with?';
    const threaded = made(2);
    expect(threaded.threads).toBe(2);
    const [a, b] = await Promise.all([threaded.synthesize(text, { voice: 'assistant' }), made(0).synthesize(text, { voice: 'assistant' })]);
    expect(a.samples.length).toBeGreaterThan(16000);
    expect(Buffer.from(a.samples.buffer).equals(Buffer.from(b.samples.buffer))).toBe(true);
    expect(a.words.map((w) => w.word)).toEqual(text.split(' '));
    for (let i = 1; i < a.words.length; i++) expect(a.words[i]?.start).toBeGreaterThanOrEqual(a.words[i - 1]?.end as number);
    expect(a.duration).toBeCloseTo(a.samples.length / 16000, 6);
  }, 60_000);

  it('says a text asked for now before the texts asked for ahead that still wait', async () => {
    const s = made(1);
    const order: string[] = [];
    const ask = (text: string, urgency: 'now' | 'ahead') => s.synthesize(text, { urgency }).then(() => order.push(text));
    await Promise.all([ask('First line said ahead.', 'ahead'), ask('Second line said ahead.', 'ahead'), ask('Third line said ahead.', 'ahead'), ask('Needed now.', 'now')]);
    // The first had already gone to the thread; the one needed now comes next.
    expect(order.slice(0, 2)).toEqual(['First line said ahead.', 'Needed now.']);
  }, 60_000);

  it('refuses texts once closed', async () => {
    const s = made(1);
    await s.close();
    await expect(s.synthesize('Too late.')).rejects.toThrow('closed');
  });
});
