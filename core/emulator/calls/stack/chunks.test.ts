import { describe, expect, it } from 'vitest';
import { chunkPlanOf, chunksOf, STAND_IN_PLAN } from './chunks.js';

describe('a custom voice chunk plan', () => {
  it('cuts at a boundary once a piece has minCharacters, never inside a number', () => {
    const plan = chunkPlanOf({ provider: 'custom-voice' });
    expect(chunksOf('Sure. Your table for four is booked at 7.30 tonight, under Kim. Anything else?', plan)).toEqual([
      'Sure. Your table for four is booked at 7.30 tonight,',
      'under Kim. Anything else?',
    ]);
  });

  it('sends the line whole when disabled, and honours its own boundaries and minimum', () => {
    expect(chunksOf('One. Two. Three.', chunkPlanOf({ chunkPlan: { enabled: false } }))).toEqual(['One. Two. Three.']);
    expect(chunksOf('One. Two! Three.', chunkPlanOf({ chunkPlan: { minCharacters: 1, punctuationBoundaries: ['!'] } }))).toEqual(['One. Two!', 'Three.']);
  });
});

describe('the stand-in voice', () => {
  it('cuts a short first piece at the first boundary past 10 characters, then pieces of 30', () => {
    expect(chunksOf('Certainly, I have noted request number 3, that is three items, and it is confirmed for you.', STAND_IN_PLAN)).toEqual([
      'Certainly,',
      'I have noted request number 3,',
      'that is three items, and it is confirmed for you.',
    ]);
    expect(chunksOf('Yes. Thanks for calling Riverside Dental.', STAND_IN_PLAN)).toEqual(['Yes. Thanks for calling Riverside Dental.']);
    expect(chunksOf('Hello.', STAND_IN_PLAN)).toEqual(['Hello.']);
  });
});
