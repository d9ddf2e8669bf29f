import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserStream } from './web-stream.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A stream to a fake page on a clock the test moves. */
function stream() {
  let now = 0;
  const sent: number[] = [];
  let silenced = 0;
  const s = new BrowserStream(
    { start: () => undefined, send: (samples) => sent.push(samples.length) },
    () => now,
    () => silenced++,
  );
  return { s, sent, silenced: () => silenced, at: (t: number) => ((now = t), vi.advanceTimersByTime(40)) };
}

describe("the assistant's audio streamed to a page", () => {
  it('goes out in 100 ms frames 0.3 s ahead of the call, all of it by the end of the line', () => {
    const t = stream();
    const line = t.s.line('Hello.', 16000);
    line.push(new Int16Array(16000));
    expect(t.sent).toEqual([1600, 1600, 1600]);
    t.at(0.5);
    expect(t.sent.reduce((a, b) => a + b, 0)).toBe(12800);
    line.end();
    t.at(1);
    expect(t.sent.reduce((a, b) => a + b, 0)).toBe(16000);
  });

  it('stops where the line is cut, and the page drops what it still had', () => {
    const t = stream();
    const line = t.s.line('A long line.', 16000);
    line.push(new Int16Array(16000 * 5));
    t.at(1);
    line.cut();
    const sent = t.sent.reduce((a, b) => a + b, 0);
    t.at(3);
    expect(t.sent.reduce((a, b) => a + b, 0)).toBe(sent);
    expect(sent).toBe(1.3 * 16000);
    expect(t.silenced()).toBe(1);
  });

  it('sends nothing while the assistant is muted', () => {
    const t = stream();
    t.s.muted = true;
    t.s.line('Unheard.', 16000).push(new Int16Array(8000));
    t.at(1);
    expect(t.sent).toEqual([]);
  });
});
