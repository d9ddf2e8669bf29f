import { describe, expect, it, vi } from 'vitest';
import { dailyTransportFactory, safeCallObjectOptions, safeDailyConfig } from './daily-transport.js';
import type { DailyCall, DailyFactoryOptions, DailyModule } from './daily-transport.js';
import type { TransportEvent } from './types.js';

/** A stand-in for daily-js's call object: records calls and lets the test fire Daily events. */
function fakeDaily() {
  const handlers = new Map<string, Set<(event: unknown) => void>>();
  const calls: Array<[string, unknown[]]> = [];
  const created: DailyFactoryOptions[] = [];
  const iframeStyle = new Map<string, string>();
  const call = new Proxy({} as Record<string, unknown>, {
    get(_target, key: string) {
      if (key === 'on') return (name: string, fn: (event: unknown) => void) => (handlers.get(name) ?? handlers.set(name, new Set()).get(name))?.add(fn);
      if (key === 'off') return (name: string, fn: (event: unknown) => void) => handlers.get(name)?.delete(fn);
      if (key === 'iframe') return () => ({ style: { setProperty: (name: string, value: string) => iframeStyle.set(name, value) } });
      if (key === 'then') return undefined;
      return (...args: unknown[]) => {
        calls.push([key, args]);
        if (key === 'getRemoteParticipantsAudioLevel') return { a: 0.2 };
        if (key === 'localAudio') return false;
        return Promise.resolve();
      };
    },
  }) as unknown as DailyCall;
  const module: DailyModule = { default: { createCallObject: (options) => (created.push(options ?? {}), call) } };
  const fire = (name: string, event: unknown) => handlers.get(name)?.forEach((fn) => fn(event));
  const listenerCount = () => [...handlers.values()].reduce((total, set) => total + set.size, 0);
  return { module, calls, created, fire, listenerCount, iframeStyle };
}

const request = {
  url: 'https://example.daily.co/room',
  audioSource: true,
  videoSource: false,
  callObjectOptions: { userData: { plan: 'x' }, dailyConfig: { micAudioMode: 'speech' as const } },
  dailyConfig: { avoidEval: true, callObjectBundleUrlOverride: 'http://127.0.0.1:1/bundle.js' },
};

describe('the Daily transport', () => {
  it('loads daily-js through the loader and passes every option through (Daily validates them)', async () => {
    const daily = fakeDaily();
    const load = vi.fn(async () => daily.module);
    const factory = dailyTransportFactory(load);
    expect(load).not.toHaveBeenCalled();
    await factory(request);
    expect(load).toHaveBeenCalledTimes(1);
    expect(daily.created[0]).toEqual({
      userData: { plan: 'x' },
      audioSource: true,
      videoSource: false,
      dailyConfig: { micAudioMode: 'speech', avoidEval: true, callObjectBundleUrlOverride: 'http://127.0.0.1:1/bundle.js' },
    });
    expect(daily.iframeStyle.get('display')).toBe('none');
  });

  it('joins without automatic track subscription and sends a token only when there is one', async () => {
    const daily = fakeDaily();
    const transport = await dailyTransportFactory(async () => daily.module)(request);
    await transport.join({ url: 'https://x.daily.co/r' });
    await transport.join({ url: 'https://x.daily.co/r', token: 'tok' });
    expect(daily.calls.filter(([name]) => name === 'join').map(([, args]) => args[0])).toEqual([
      { url: 'https://x.daily.co/r', subscribeToTracksAutomatically: false },
      { url: 'https://x.daily.co/r', token: 'tok', subscribeToTracksAutomatically: false },
    ]);
  });

  it('maps Daily events to transport events and unsubscribes every handler', async () => {
    const daily = fakeDaily();
    const transport = await dailyTransportFactory(async () => daily.module)(request);
    const seen: TransportEvent[] = [];
    const unsubscribe = transport.subscribe((event) => seen.push(event));
    const track = { kind: 'audio' };
    daily.fire('app-message', { data: 'listening' });
    daily.fire('track-started', { participant: { session_id: 's1', user_name: 'Vapi Speaker', local: false }, track });
    daily.fire('left-meeting', { action: 'left-meeting' });
    daily.fire('nonfatal-error', { type: 'audio-processor-error' });
    daily.fire('recording-started', { action: 'recording-started' });
    daily.fire('local-audio-level', { audioLevel: 0.25 });
    expect(seen.map((event) => event.type)).toEqual(['app-message', 'track-started', 'left', 'nonfatal-error', 'pass-through', 'local-audio-level']);
    expect(seen[1]).toMatchObject({ participant: { sessionId: 's1', userName: 'Vapi Speaker', local: false }, track });
    expect(daily.listenerCount()).toBeGreaterThan(10);
    unsubscribe();
    expect(daily.listenerCount()).toBe(0);
  });

  it('drives Daily for levels, noise cancellation, subscriptions and recording', async () => {
    const daily = fakeDaily();
    const transport = await dailyTransportFactory(async () => daily.module)(request);
    await transport.startRemoteAudioLevelObserver(100);
    expect(transport.remoteAudioLevels()).toEqual({ a: 0.2 });
    await transport.setNoiseCancellation(true);
    await transport.setNoiseCancellation(false);
    transport.receive('s1', { audio: true, video: false });
    transport.setLocalAudio(false);
    expect(transport.localAudio()).toBe(false);
    const names = daily.calls.map(([name, args]) => `${name}:${JSON.stringify(args)}`);
    expect(names).toEqual([
      'startRemoteParticipantsAudioLevelObserver:[100]',
      'getRemoteParticipantsAudioLevel:[]',
      'updateInputSettings:[{"audio":{"processor":{"type":"noise-cancellation"}}}]',
      'updateInputSettings:[{"audio":{"processor":{"type":"none"}}}]',
      'updateParticipant:["s1",{"setSubscribedTracks":{"audio":true,"video":false}}]',
      'setLocalAudio:[false]',
      'localAudio:[]',
    ]);
  });
});

describe('Chrome 140 guards (as in the platform SDK)', () => {
  it('drop alwaysIncludeMicInPermissionPrompt:false and audioSource:false, keep the rest', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(safeDailyConfig({ alwaysIncludeMicInPermissionPrompt: false, avoidEval: true })).toEqual({ avoidEval: true });
    expect(safeDailyConfig({ alwaysIncludeMicInPermissionPrompt: true })).toEqual({ alwaysIncludeMicInPermissionPrompt: true });
    expect(safeCallObjectOptions({ audioSource: false, startAudioOff: true })).toEqual({ audioSource: true, startAudioOff: true });
    vi.restoreAllMocks();
  });
});
