// The call schedule: rate, ramp, duration and a burst, as start times in real ms; and the live figures.
import { expect, it } from 'vitest';
import { startHook } from '../emulator/calls/testing.js';
import { runLoad, startTimes } from './index.js';
import { LoadClock } from './engine.js';
import type { LiveFigures } from './index.js';

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
