// The call after the developer spoke (`voice call say`): a line said while the scripted customer was
// still talking waits in the queue, is answered at the next pause, and only then does the silence
// timeout start. On a fake session whose clock moves only when the call waits.
import { describe, expect, it } from 'vitest';
import type { LiveLine } from './live.js';
import { LiveLines, SILENCE_SECONDS } from './live.js';
import type { CallSession } from './session.js';

function fakeSession() {
  const f = {
    now: 0,
    ended: false,
    endedAt: undefined as number | undefined,
    reason: undefined as string | undefined,
    hear: undefined as ((line: LiveLine) => boolean) | undefined,
    secondsNow: () => f.now,
    wait: async (seconds: number) => {
      f.now += seconds;
      return !f.ended;
    },
    log: () => undefined,
    finish: (reason: string) => {
      f.ended = true;
      f.endedAt = f.now;
      f.reason = reason;
    },
  };
  return f;
}

describe('LiveLines.yours', () => {
  it('answers a line queued before it started, then waits the whole silence timeout for the next', async () => {
    const s = fakeSession();
    const live = new LiveLines(s as unknown as CallSession);
    expect(s.hear!({ text: 'I want a table for two.' })).toBe(true);
    const handled: { text?: string; at: number }[] = [];
    await live.yours(async (line) => {
      handled.push({ text: line.text, at: s.now });
      s.now += 4; // the assistant's answer takes 4 s of the call
      return true;
    });
    expect(handled).toEqual([{ text: 'I want a table for two.', at: 0 }]);
    expect(s.reason).toBe('silence-timed-out');
    expect(s.endedAt).toBe(4 + SILENCE_SECONDS);
  });
});
