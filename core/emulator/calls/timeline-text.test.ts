// A call's audio timeline written out for an extractor: every line where it was said, the cut and
// the words said before it, silences, pauses, keys, latencies, and a summary whose figures add up.
import { describe, expect, it } from 'vitest';
import type { TimelineData } from './audio/timeline.js';
import { timelineText } from './timeline-text.js';

const words = (text: string, at: number, each: number) => text.split(' ').map((word, i) => ({ word, start: at + i * each, end: at + (i + 1) * each }));

const CALL: TimelineData = {
  version: 1,
  sampleRate: 16000,
  seconds: 12,
  events: [
    { type: 'speech', side: 'assistant', at: 0, end: 2, text: 'Hello, Bella Cucina.', words: words('Hello, Bella Cucina.', 0, 2 / 3), line: 1, source: 'first-message' },
    { type: 'speech', side: 'customer', at: 3, end: 4, text: 'A table', words: words('A table', 3, 0.5), line: 1 },
    { type: 'pause', side: 'customer', at: 4, end: 4.8, line: 1 },
    { type: 'speech', side: 'customer', at: 4.8, end: 5.8, text: 'for two.', words: words('for two.', 4.8, 0.5), line: 1 },
    { type: 'latency', at: 6.5, modelLatency: 300, voiceLatency: 0, transcriberLatency: 0, endpointingLatency: 100, turnLatency: 700 },
    {
      type: 'speech',
      side: 'assistant',
      at: 6.5,
      end: 7.5,
      text: 'Sure, what time would you like?',
      words: words('Sure, what time would you like?', 6.5, 0.4),
      line: 2,
      cut: { at: 7.5, heard: 'Sure, what time' },
    },
    { type: 'speech', side: 'customer', at: 7, end: 8, text: 'Seven.', words: words('Seven.', 7, 1), line: 2 },
    { type: 'interruption', by: 'customer', at: 7.5, rule: 'voiceSeconds', heard: 'Sure, what time' },
    { type: 'keys', side: 'customer', at: 8.5, end: 9.1, digits: '1#' },
    { type: 'hook', at: 11, on: 'customer.speech.timeout', count: 1, actions: ['say'] },
  ],
};

describe('timelineText', () => {
  const text = timelineText(CALL);
  const lines = text.split('\n');

  it('writes every line with its times, the cut with the words said before it, pauses, keys and hooks, in time order', () => {
    expect(lines).toContain('0.00-2.00 AI: Hello, Bella Cucina.');
    expect(lines).toContain('4.00-4.80 User pauses mid-sentence (0.80 s)');
    expect(lines).toContain('6.50-7.50 AI (cut off at 7.50; only "Sure, what time" was said of: Sure, what time would you like?)');
    expect(lines).toContain('7.50 INTERRUPTION: the user interrupted the assistant, which stopped after "Sure, what time" (rule: voiceSeconds)');
    expect(lines).toContain('8.50-9.10 User presses keys 1#');
    expect(lines).toContain('  turn latency 0.70 s (endpointing 0.10 s, model 0.30 s, voice synthesis 0.00 s)');
    expect(text.indexOf('User: A table')).toBeLessThan(text.indexOf('User: for two.'));
    expect(text).toContain('11.00 hook customer.speech.timeout fires (time 1): say');
  });

  it('lists the silences between what was heard, and none inside a pause or under 0.3 s', () => {
    expect(lines.filter((l) => l.endsWith(' s)') && l.includes(' silence ('))).toEqual([
      '2.00-3.00 silence (1.00 s)',
      '5.80-6.50 silence (0.70 s)',
      '8.00-8.50 silence (0.50 s)',
      '9.10-12.00 silence (2.90 s)',
    ]);
  });

  it('sums it up: interruptions by side, overlap, the longest silence, latency and speech rates', () => {
    expect(lines.at(-1)).toBe(
      'Summary: call length 12.00 s; interruptions: 1 by the user, 0 by the assistant; both speaking at once 0.50 s; longest silence 2.90 s; turn latency mean 0.70 s, max 0.70 s; speech rate AI 2.0 words/s, User 1.7 words/s.',
    );
  });

  it('a call where nobody talked over anyone has no interruption mark', () => {
    const calm = timelineText({ ...CALL, events: CALL.events.filter((e) => e.type !== 'interruption') });
    expect(calm).not.toContain('INTERRUPTION:');
    expect(calm).toContain('interruptions: 0 by the user, 0 by the assistant');
  });
});
