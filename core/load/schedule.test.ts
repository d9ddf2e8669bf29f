// The call schedule: rate, ramp, duration and a burst, as start times in real ms; and the live figures.
import { describe, expect, it, vi } from 'vitest';
import { startHook } from '../emulator/calls/testing.js';
import { LoadOptionsError, checkOptions, runLoad, startTimes } from './index.js';
import { LoadClock } from './engine.js';
import type { LiveFigures, PostFn } from './index.js';

it('starts every call at once without a rate, and at the rate after a linear ramp with one', () => {
  expect(startTimes({ calls: 3 })).toEqual([0, 0, 0]);
  expect(startTimes({ calls: 4, rate: 2 })).toEqual([0, 500, 1000, 1500]);
  // A 2 s ramp to 2 calls a second starts 2 calls during the ramp (at 0 and 1.41 s), then one every 0.5 s.
  const ramped = startTimes({ calls: 5, rate: 2, rampSeconds: 2 });
  expect(ramped.map((t) => Math.round(t))).toEqual([0, 1414, 2000, 2500, 3000]);
});

it('stops starting calls at the duration, and a burst starts a fifth of them at one instant', () => {
  expect(startTimes({ calls: 100, rate: 10, durationSeconds: 1 })).toHaveLength(10);
  const burst = startTimes({ calls: 10, rate: 1, faults: ['burst'] });
  expect(burst).toHaveLength(10);
  const counts = new Map<number, number>();
  for (const t of burst) counts.set(t, (counts.get(t) ?? 0) + 1);
  expect(Math.max(...counts.values())).toBe(3);
  expect(Math.max(...burst)).toBe(7000);
});

it('reports live figures while it runs, the last one with every call done', async () => {
  const hook = await startHook(() => ({ json: { assistantId: 'a1' }, delayMs: 5 }));
  try {
    const seen: LiveFigures[] = [];
    const r = await runLoad({
      assistant: { name: 'L', firstMessage: 'Hello!', serverMessages: ['status-update', 'end-of-call-report'], server: { url: hook.url } },
      calls: 4,
      rate: 4,
      speed: 50,
      onProgress: (f) => seen.push(f),
    });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.some((f) => f.running > 0)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ running: 0, done: 4, deliveries: r.deliveries, misses: 0 });
  } finally {
    await hook.close();
  }
}, 30_000);

it("moves a call's clock by exactly each pause, a sub-millisecond one included", async () => {
  const clock = new LoadClock(10_000);
  const t = clock.now();
  // 1 simulated second is 0.1 real ms here; 20 simulated seconds are 2 real ms (a timer).
  await clock.sleep(1000);
  await clock.sleep(250);
  await clock.sleep(20_000);
  expect(clock.now() - t).toBe(21_250);
  const stopped = new AbortController();
  stopped.abort();
  await clock.sleep(1000, stopped.signal);
  expect(clock.now() - t).toBe(21_250);
});

describe('held lines (concurrent)', () => {
  // A server that answers after a turn of the event loop, counting the calls open at once: a call
  // opens with its first message and closes with its end-of-call report.
  function counting(onEnd?: (ended: number) => void): { post: PostFn; open: Set<string>; most: () => number; ended: () => number } {
    const open = new Set<string>();
    let most = 0;
    let ended = 0;
    const post: PostFn = async (_r, target, callId, message) => {
      open.add(callId);
      most = Math.max(most, open.size);
      await new Promise((r) => setImmediate(r));
      if (message.type === 'end-of-call-report') {
        open.delete(callId);
        ended++;
        onEnd?.(ended);
      }
      const answer = message.type === 'assistant-request' ? { assistantId: 'a1' } : {};
      return { delivery: { id: message.type, callId, type: message.type, url: target.url, sentAt: '', request: { headers: {}, body: { message } }, status: 200, answer, ms: 0 }, answer };
    };
    return { post, open, most: () => most, ended: () => ended };
  }
  const assistant = { name: 'L', firstMessage: 'Hello!', serverMessages: ['status-update', 'end-of-call-report'], server: { url: 'http://127.0.0.1:9/hook' } };

  it('keeps at most N calls at once, starting the next as one ends, until the count is placed', async () => {
    const c = counting();
    const r = await runLoad({ assistant, calls: 12, concurrent: 3, speed: 10_000, post: c.post });
    expect(r.calls).toMatchObject({ started: 12, ended: 12 });
    expect(c.ended()).toBe(12);
    expect(c.most()).toBe(3);
  }, 30_000);

  it('with a duration and no count, keeps the lines busy until the duration is up, then drains', async () => {
    // The run's clock is faked: the duration passes when the tenth call ends, whatever the machine's speed.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const c = counting((n) => n === 10 && vi.advanceTimersByTime(60_000));
      const r = await runLoad({ assistant, calls: Infinity, concurrent: 4, durationSeconds: 30, speed: 10_000, post: c.post });
      // Four at once, a new one as each of the first nine ended, none after the tenth.
      expect(r.calls.started).toBe(13);
      expect(r.calls.ended).toBe(13);
      expect(c.ended()).toBe(13);
      expect(c.most()).toBe(4);
      expect(c.open.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  }, 30_000);

  it('refuses an unbounded run, a count that is not whole, and a burst (which would break the cap)', () => {
    expect(() => checkOptions({ assistant, calls: Infinity, concurrent: 2 })).toThrow(LoadOptionsError);
    expect(() => checkOptions({ assistant, calls: 5, concurrent: 1.5 })).toThrow(/concurrent must be a whole number/);
    expect(() => checkOptions({ assistant, calls: 5, concurrent: 2, faults: ['burst'] })).toThrow(/one or the other/);
  });
});
