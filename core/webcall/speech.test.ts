import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from './env.js';
import { LevelObserver, SpeechDetector, volumeLevel } from './speech.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('volumeLevel', () => {
  it('is the summed level over 0.15, capped at 1', () => {
    expect(volumeLevel({ a: 0.03 }).volume).toBeCloseTo(0.2);
    expect(volumeLevel({ a: 0.03, b: 0.06 })).toEqual({ sum: expect.closeTo(0.09), volume: expect.closeTo(0.6) });
    expect(volumeLevel({ a: 0.1, b: 0.1 }).volume).toBe(1);
    expect(volumeLevel({}).volume).toBe(0);
  });
});

describe('SpeechDetector', () => {
  function detector() {
    const seen: string[] = [];
    const speech = new SpeechDetector(
      systemClock,
      () => seen.push('start'),
      () => seen.push('end'),
    );
    return { speech, seen };
  }

  it('treats 0.009 as silence and 0.011 as speech', () => {
    const { speech, seen } = detector();
    speech.sample(0.009);
    speech.sample(0.01);
    expect(seen).toEqual([]);
    speech.sample(0.011);
    expect(seen).toEqual(['start']);
  });

  it('ends speech 1000 ms after the last loud sample, not at 900', () => {
    const { speech, seen } = detector();
    speech.sample(0.05);
    vi.advanceTimersByTime(500);
    speech.sample(0.05);
    speech.sample(0.001);
    expect(seen).toEqual(['start']);
    vi.advanceTimersByTime(900);
    expect(seen).toEqual(['start']);
    vi.advanceTimersByTime(100);
    expect(seen).toEqual(['start', 'end']);
    speech.sample(0.02);
    expect(seen).toEqual(['start', 'end', 'start']);
  });

  it('reset drops the pending end and its timer', () => {
    const { speech, seen } = detector();
    speech.sample(0.5);
    expect(vi.getTimerCount()).toBe(1);
    speech.reset();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(seen).toEqual(['start']);
  });
});

describe('LevelObserver', () => {
  it('reads every 100 ms until stopped', () => {
    const readings: number[] = [];
    let level = 0;
    const observer = new LevelObserver(
      systemClock,
      () => ({ a: ++level }),
      (levels) => readings.push(levels.a ?? -1),
    );
    observer.start();
    observer.start();
    vi.advanceTimersByTime(99);
    expect(readings).toEqual([]);
    vi.advanceTimersByTime(201);
    expect(readings).toEqual([1, 2, 3]);
    observer.stop();
    vi.advanceTimersByTime(1000);
    expect(readings).toEqual([1, 2, 3]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
