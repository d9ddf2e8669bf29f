import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEnvironment, harness, jsonResponse, scriptedTransports, webCallBody } from './testing.js';
import WebCall from './index.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A promise the test settles by hand. */
function gate() {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('state', () => {
  it('moves idle → starting → active → ending → idle with a state event for each', async () => {
    const h = harness();
    expect(h.call.state).toBe('idle');
    const started = h.call.start('a');
    expect(h.call.state).toBe('starting');
    await started;
    expect(h.call.state).toBe('active');
    const stopped = h.call.stop();
    expect(h.call.state).toBe('ending');
    await stopped;
    expect(h.call.state).toBe('idle');
    expect(h.events.filter((event) => event.name === 'state').map((event) => event.args)).toEqual([
      ['starting', 'idle'],
      ['active', 'starting'],
      ['ending', 'active'],
      ['idle', 'ending'],
    ]);
  });

  it('stop() when idle does nothing', async () => {
    const h = harness();
    await h.call.stop();
    expect(h.events).toEqual([]);
  });
});

describe('stop() during a start', () => {
  const points = ['web-call-creation', 'daily-call-object-creation', 'mobile-permissions', 'daily-call-join', 'audio-observer-setup', 'audio-processing-setup'] as const;

  it.each(points)('during %s aborts it: null, no join left behind, no failure events, nothing held', async (point) => {
    const held = gate();
    const env = new FakeEnvironment();
    if (point === 'mobile-permissions') env.agent = 'iPhone';
    const hold = () => held.promise;
    const h = harness({
      env,
      respond: point === 'web-call-creation' ? async () => (await held.promise, jsonResponse(201, webCallBody())) : undefined,
      create: point === 'daily-call-object-creation' ? hold : undefined,
      script: {
        join: point === 'daily-call-join' ? hold : undefined,
        startRemoteAudioLevelObserver: point === 'audio-observer-setup' ? hold : undefined,
        setNoiseCancellation: point === 'audio-processing-setup' ? hold : undefined,
      },
    });
    const started = h.call.start('a');
    await vi.advanceTimersByTimeAsync(point === 'mobile-permissions' ? 500 : 0);
    expect(h.stages().at(-1)).toBe(`${point}:started`);
    await h.call.stop();
    held.open();
    await vi.advanceTimersByTimeAsync(2000);

    expect(await started).toBeNull();
    expect(h.call.state).toBe('idle');
    expect(h.named('call-start-failed')).toEqual([]);
    expect(h.named('error')).toEqual([]);
    expect(h.named('call-start-success')).toEqual([]);
    expect(h.transports.live()).toEqual([]);
    expect(h.transports.transports.every((transport) => transport.destroyed)).toBe(true);
    expect(h.api.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    // Nothing happens after the stop: no stage runs past the one that was interrupted.
    expect(
      h
        .stages()
        .filter((stage) => stage.endsWith(':started'))
        .at(-1),
    ).toBe(`${point}:started`);
  });

  it('a transport that arrives after the stop is destroyed, never joined', async () => {
    const held = gate();
    const h = harness({ create: () => held.promise });
    const started = h.call.start('a');
    await vi.advanceTimersByTimeAsync(0);
    const stopped = h.call.stop();
    held.open();
    await stopped;
    await started;
    await vi.advanceTimersByTimeAsync(0);
    expect(h.transports.transports).toHaveLength(1);
    expect(h.transports.last.destroyed).toBe(true);
    expect(h.transports.last.methods()).not.toContain('join');
  });
});

describe('React StrictMode (start, stop, start without awaiting)', () => {
  it('leaves exactly one live call', async () => {
    const h = harness({ script: { join: () => new Promise<void>((resolve) => setTimeout(resolve, 300)) } });
    const first = h.call.start('a');
    const stopped = h.call.stop();
    const second = h.call.start('a');
    await vi.advanceTimersByTimeAsync(1000);
    await stopped;
    expect(await first).toBeNull();
    expect(await second).not.toBeNull();
    expect(h.call.state).toBe('active');
    expect(h.transports.live()).toHaveLength(1);
    expect(h.named('call-start-success')).toHaveLength(1);
    expect(h.named('call-start-failed')).toHaveLength(0);
  });

  it('start, stop, start, stop without awaiting ends with no call at all', async () => {
    const h = harness();
    const first = h.call.start('a');
    void h.call.stop();
    const second = h.call.start('a');
    const last = h.call.stop();
    await vi.advanceTimersByTimeAsync(1000);
    await last;
    expect(await first).toBeNull();
    expect(await second).toBeNull();
    expect(h.call.state).toBe('idle');
    expect(h.transports.live()).toHaveLength(0);
    expect(h.api.requests.length).toBeLessThanOrEqual(1);
  });

  it('also when the unmount comes after the join', async () => {
    const h = harness();
    await h.call.start('a');
    void h.call.stop();
    const again = await h.call.start('a');
    expect(again).not.toBeNull();
    expect(h.transports.transports).toHaveLength(2);
    expect(h.transports.live()).toEqual([h.transports.last]);
  });

  it('a start from a state listener during ending waits for the end instead of being refused', async () => {
    const h = harness();
    await h.call.start('a');
    let restarted: Promise<unknown> | null = null;
    h.call.once('state', (state) => {
      if (state === 'ending') restarted = h.call.start('a');
    });
    await h.call.stop();
    expect(await restarted).not.toBeNull();
    expect(h.transports.live()).toHaveLength(1);
  });
});

describe('without an error listener', () => {
  it('failures neither throw nor wedge the instance', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const transports = scriptedTransports({
      join: async () => {
        if (fail) throw new Error('join failed');
      },
    });
    const call = new WebCall('k', 'http://127.0.0.1:9', undefined, undefined, {
      fetch: (async () => jsonResponse(201, webCallBody())) as unknown as typeof fetch,
      transport: transports.factory,
      environment: new FakeEnvironment(),
    });
    expect(await call.start('a')).toBeNull();
    expect(call.state).toBe('idle');
    fail = false;
    expect(await call.start('a')).not.toBeNull();
    expect(call.state).toBe('active');
  });

  it('a listener that throws does not stop the start', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = harness();
    h.call.on('call-start-progress', () => {
      throw new Error('listener bug');
    });
    expect(await h.call.start('a')).not.toBeNull();
  });
});

describe('dispose()', () => {
  it('releases every timer, listener, media element, track and audio context', async () => {
    const h = harness();
    await h.call.start('a');
    const transport = h.transports.last;
    transport.track('audio');
    transport.levels = { a: 0.5 };
    await vi.advanceTimersByTimeAsync(150);
    await h.call.increaseMicLevel(2);
    expect(h.env.elements.size).toBe(1);
    expect(vi.getTimerCount()).toBeGreaterThan(0);

    await h.call.dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(h.call.listenerCount()).toBe(0);
    expect(transport.listeners.size).toBe(0);
    expect(transport.destroyed).toBe(true);
    expect(h.env.elements.size).toBe(0);
    expect(h.env.tracks.size).toBe(0);
    expect(h.env.openAudioContexts).toBe(0);
    await expect(h.call.start('a')).rejects.toThrow('disposed');
  });

  it('100 start/stop cycles, stopped at varying points, leave nothing behind', async () => {
    const h = harness({ record: false, script: { join: () => new Promise<void>((resolve) => setTimeout(resolve, 20)) } });
    const userListener = () => {};
    h.call.on('call-end', userListener);
    for (let cycle = 0; cycle < 100; cycle++) {
      const started = h.call.start('a');
      await vi.advanceTimersByTimeAsync(cycle % 4 === 0 ? 0 : cycle % 4 === 1 ? 10 : 100);
      if (cycle % 3 === 0) {
        h.transports.last.track('audio');
        await vi.advanceTimersByTimeAsync(0);
      }
      await h.call.stop();
      await started;
    }
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.transports.transports).toHaveLength(100);
    expect(h.transports.live()).toHaveLength(0);
    expect(h.transports.transports.every((transport) => transport.destroyed && transport.listeners.size === 0)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(h.env.elements.size).toBe(0);
    expect(h.call.listenerCount()).toBe(1);
    expect(h.call.state).toBe('idle');
  });
});

describe('EventEmitter compatibility', () => {
  it('on/once/off/removeListener/removeAllListeners behave as in EventEmitter', async () => {
    const h = harness({ record: false });
    const seen: string[] = [];
    const a = () => seen.push('a');
    const b = () => seen.push('b');
    h.call.on('call-start', a).once('call-start', b);
    await h.call.start('a');
    h.transports.last.message('listening');
    h.transports.last.message('listening');
    h.call.off('call-start', a);
    h.transports.last.message('listening');
    expect(seen).toEqual(['a', 'b', 'a']);
    h.call.on('call-start', a).removeListener('call-start', a);
    expect(h.call.listenerCount('call-start')).toBe(0);
    h.call.on('call-end', a).removeAllListeners();
    expect(h.call.listenerCount()).toBe(0);
  });

  it('warns once past 10 listeners of one event', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const h = harness({ record: false });
    for (let i = 0; i < 12; i++) h.call.on('message', () => {});
    expect(h.call.getMaxListeners()).toBe(10);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('end() and say() before the join', () => {
  it('send nothing (Daily would throw before join) and end() still aborts the start', async () => {
    const h = harness({ script: { join: () => new Promise<void>((resolve) => setTimeout(resolve, 100)) } });
    const started = h.call.start('a');
    await vi.advanceTimersByTimeAsync(10);
    h.call.say('too early');
    await h.call.end();
    await vi.advanceTimersByTimeAsync(200);
    expect(await started).toBeNull();
    expect(h.transports.last.sent).toEqual([]);
    expect(h.call.state).toBe('idle');
  });
});
