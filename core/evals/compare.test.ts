// The judging rules on their own: comparators on primitives only, regex literals, audio-only
// outputs, and the verdict of an item's evaluations (never a pass when nothing was judged).
import { describe, expect, it } from 'vitest';
import { needsAudio } from './audio.js';
import { cannotCompare, compare, valueAt } from './compare.js';
import { judgeExact, judgeRegex, parseRegex } from './judge.js';
import { verdictOf } from './simulate.js';
import type { EvaluationResult } from './simulate.js';

const OUTCOME = { type: 'object', properties: { outcome: { type: 'string' }, slots: { type: 'integer' }, when: { type: 'object', properties: { day: { type: 'string' } } } } };

describe('comparisons', () => {
  it('compares primitives with each comparator, numbers from numeric text', () => {
    expect(compare('booked', '=', 'booked')).toEqual({ passed: true });
    expect(compare('moved', '!=', 'booked')).toEqual({ passed: true });
    expect(compare(3, '>', 2).passed).toBe(true);
    expect(compare('3', '>=', 3).passed).toBe(true);
    expect(compare(2, '<', 2).passed).toBe(false);
    expect(compare(2, '<=', 2).passed).toBe(true);
    expect(compare('true', '=', true).passed).toBe(true);
    expect(compare(null, '=', 'booked')).toEqual({ passed: false, error: 'nothing was extracted' });
    expect(compare({ a: 1 }, '=', 'booked')).toMatchObject({ passed: false, error: expect.stringContaining('is not a string') });
  });

  it('refuses what cannot be compared before anything runs', () => {
    expect(cannotCompare(OUTCOME, 'outcome', '=', 'booked')).toBeUndefined();
    expect(cannotCompare(OUTCOME, 'when.day', '!=', 'Monday')).toBeUndefined();
    expect(cannotCompare(OUTCOME, undefined, '=', 'booked')).toContain('primitive values only (name a field with `path`)');
    expect(cannotCompare(OUTCOME, 'when', '=', 'x')).toContain('is object');
    expect(cannotCompare(OUTCOME, 'nowhere', '=', 'x')).toContain('is not in its schema');
    expect(cannotCompare(OUTCOME, 'outcome', '>', 'a')).toContain('compares numbers');
    expect(cannotCompare(OUTCOME, 'slots', '>', 2)).toBeUndefined();
    expect(cannotCompare(OUTCOME, 'outcome', '~', 'a')).toContain('unknown comparator');
    expect(valueAt({ when: { day: 'Friday' } }, '$.when.day')).toBe('Friday');
  });
});

describe('judges', () => {
  it('reads JavaScript regex literals (flags, escaped slashes) and raw patterns', () => {
    expect(parseRegex('/riverside/i').test('RIVERSIDE')).toBe(true);
    expect(parseRegex('/a\\/b/').test('a/b')).toBe(true);
    expect(parseRegex('\\d{3}').test('call 555')).toBe(true);
    expect(judgeRegex({ content: '/tuesday/i' }, 'Tuesday works', [])).toEqual({ passed: true });
    expect(judgeRegex({ content: '/(/' }, 'x', []).reason).toContain('not a valid regular expression');
  });

  it('matches exactly but for case and surrounding space, tool calls by name and arguments', () => {
    expect(judgeExact({ content: 'Hello there.' }, '  hello THERE. ', []).passed).toBe(true);
    const call = { id: 'c1', name: 'book', arguments: '{"day":"Tuesday"}' };
    expect(judgeExact({ content: 'ok', toolCalls: [{ name: 'book', arguments: { day: 'tuesday' } }] }, 'ok', [call]).passed).toBe(true);
    expect(judgeExact({ content: 'ok', toolCalls: [{ name: 'book', arguments: { day: 'Friday' } }] }, 'ok', [call]).reason).toContain('argument day is "Tuesday"');
    expect(judgeRegex({ content: 'ok', toolCalls: [{ name: 'book', arguments: { day: '^Tue' } }] }, 'ok', [call]).passed).toBe(true);
    expect(judgeExact({ content: 'ok', toolCalls: [] }, 'ok', [call]).reason).toContain('expected 0 tool call(s)');
  });
});

describe('audio-only outputs and verdicts', () => {
  it('knows what only audio carries', () => {
    expect(needsAudio({ name: 'Interruptions', schema: { type: 'boolean' } })).toContain('interruptions');
    expect(needsAudio({ name: 'Call outcome', description: 'What the call achieved', schema: OUTCOME }, 'outcome')).toBeUndefined();
  });

  const e = (fields: Partial<EvaluationResult>): EvaluationResult => ({
    structuredOutputId: 'x',
    name: 'x',
    extractedValue: null,
    expectedValue: 'y',
    comparator: '=',
    passed: false,
    required: true,
    ...fields,
  });

  it('passes only when something was judged and every required evaluation passed', () => {
    expect(verdictOf([])).toMatchObject({ passed: false, reason: expect.stringContaining('no evaluations') });
    expect(verdictOf([e({ isSkipped: true, skipReason: 'audio' })])).toMatchObject({ passed: false, reason: expect.stringContaining('No evaluation could be judged') });
    expect(verdictOf([e({ error: 'bad' }), e({ passed: true })])).toMatchObject({ passed: false, reason: 'x: bad' });
    expect(verdictOf([e({ passed: true }), e({ required: false })])).toEqual({ passed: true });
    expect(verdictOf([e({ passed: true }), e({ isSkipped: true })])).toEqual({ passed: true });
  });
});
