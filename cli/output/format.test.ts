import { describe, expect, it } from 'vitest';
import { columnsFor } from './columns.js';
import { displayNow, plainText, relativeTime, viewOf } from './format.js';
import { outputSettings } from './mode.js';

describe('views', () => {
  it('shows lists as tables with the resource columns that exist', () => {
    const items = [{ id: 'c1', type: 'webCall', status: 'ended', createdAt: '2025-01-01T00:00:00Z', other: 1 }];
    expect(columnsFor(['call'], items)).toEqual(['id', 'type', 'status', 'createdAt']);
    expect(columnsFor(['v2', 'call'], items)).toEqual(['id', 'type', 'status', 'createdAt']);
    expect(plainText(viewOf({ results: items, metadata: {} }, ['v2', 'call']))).toBe('c1\twebCall\tended\t2025-01-01T00:00:00Z\n');
  });

  it('keeps piped cells on one line and complete', () => {
    const text = plainText(viewOf({ id: 'a', note: 'two\nlines\tand tab', model: { provider: 'openai' } }, []));
    expect(text).toBe('id\ta\nnote\ttwo lines and tab\nmodel\t{"provider":"openai"}\n');
  });

  it('prints lists of strings one per line, and text as is', () => {
    expect(plainText(viewOf(['american', 'british'], []))).toBe('american\nbritish\n');
    expect(plainText(viewOf('id,cost\nc1,0.1', []))).toBe('id,cost\nc1,0.1\n');
  });

  it('says relative times', () => {
    const now = Date.parse('2025-01-10T00:00:00Z');
    expect(relativeTime('2025-01-09T23:59:58Z', now)).toBe('just now');
    expect(relativeTime('2025-01-09T22:00:00Z', now)).toBe('2 hours ago');
    expect(relativeTime('2025-01-08T00:00:00Z', now)).toBe('2 days ago');
  });
});

describe('outputSettings', () => {
  it('picks json, ink or plain and honours colour switches', () => {
    const tty = { isTTY: true, columns: 80 };
    expect(outputSettings({ json: true }, {}, tty, tty)).toMatchObject({ mode: 'json', pretty: true });
    expect(outputSettings({}, {}, {}, {})).toMatchObject({ mode: 'plain', pretty: false, color: false, spinner: false });
    expect(outputSettings({}, {}, tty, tty)).toMatchObject({ mode: 'ink', color: true, spinner: true, width: 80 });
    expect(outputSettings({}, { NO_COLOR: '1' }, tty, tty).color).toBe(false);
    expect(outputSettings({}, { TERM: 'dumb' }, tty, tty)).toMatchObject({ color: false, spinner: false });
    expect(outputSettings({ color: false }, {}, tty, tty).errColor).toBe(false);
  });
});

describe('displayNow', () => {
  it('is the instant VOICE_NOW pins (ISO or epoch ms), else the clock', () => {
    expect(displayNow({ VOICE_NOW: '2030-01-01T00:00:00Z' })).toBe(Date.UTC(2030, 0, 1));
    expect(displayNow({ VOICE_NOW: '1893456000000' })).toBe(1893456000000);
    const before = Date.now();
    const unpinned = displayNow({});
    expect(unpinned).toBeGreaterThanOrEqual(before);
    expect(displayNow({ VOICE_NOW: 'not a date' })).toBeGreaterThanOrEqual(before);
  });
});
