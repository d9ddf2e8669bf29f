// useWebCall() rendered by a real React reconciler (Ink's, which runs effects in Node) over the
// scripted transport: state follows the call, a call started from an effect runs once, and
// unmounting ends it. (Ink's reconciler does not replay effects under StrictMode: the StrictMode
// case runs in Chromium, web/e2e/webcall-local.test.ts.)
import { render } from 'ink-testing-library';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeWebCallApi, FakeEnvironment, scriptedTransports } from '../webcall/testing.js';
import { useWebCall } from './useWebCall.js';
import type { UseWebCall, UseWebCallOptions } from './useWebCall.js';

// Lets pending renders run; only for checking that something did NOT change (positive checks wait with `until`).
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};
/** Waits for a check to pass (renders land later on a busy machine). */
const until = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 5 });

afterEach(() => vi.restoreAllMocks());

function setup() {
  const api = fakeWebCallApi();
  const transports = scriptedTransports();
  const options: UseWebCallOptions = { fetch: api.fetch, transport: transports.factory, environment: new FakeEnvironment() };
  let latest: UseWebCall | undefined;
  const keep = (hook: UseWebCall) => void (latest = hook);
  /** Renders a component that only holds the hook's latest value. */
  function mount() {
    function Probe() {
      keep(useWebCall('public-key', options));
      return null;
    }
    return render(<Probe />);
  }
  return { api, transports, options, read: () => latest as UseWebCall, keep, mount };
}

describe('useWebCall', () => {
  it('follows the call: starting, active, listening, transcript and volume, then idle after stop', async () => {
    const t = setup();
    const view = t.mount();
    expect(t.read().state).toBe('idle');
    const started = t.read().start('assistant-1', { firstMessage: 'Hi' });
    expect(await started).toMatchObject({ id: 'call-1' });
    await until(() => expect(t.read().state).toBe('active'));
    expect(t.read().listening).toBe(false);
    t.transports.last.message('listening');
    t.transports.last.message(JSON.stringify({ type: 'transcript', role: 'assistant', transcriptType: 'final', transcript: 'Hi' }));
    await until(() => expect(t.read().listening).toBe(true));
    await until(() => expect(t.read().transcript).toEqual({ role: 'assistant', text: 'Hi', final: true }));
    t.read().setMuted(true);
    await until(() => expect(t.read().muted).toBe(true));
    expect(t.transports.last.localAudio()).toBe(false);
    await t.read().stop();
    await until(() => expect(t.read().state).toBe('idle'));
    expect(t.read().listening).toBe(false);
    expect(t.transports.live()).toHaveLength(0);
    view.unmount();
  });

  it('a call started from an effect runs once; unmounting ends it', async () => {
    const t = setup();
    function AutoStart() {
      const call = useWebCall('public-key', t.options);
      t.keep(call);
      const { start } = call;
      useEffect(() => {
        void start('assistant-1');
      }, [start]);
      return null;
    }
    const view = render(<AutoStart />);
    await until(() => expect(t.read().state).toBe('active'));
    await settle();
    expect(t.api.requests).toHaveLength(1);
    expect(t.transports.live()).toHaveLength(1);
    view.unmount();
    await until(() => expect(t.transports.live()).toHaveLength(0));
  });

  it('a non-fatal error keeps the call and is only logged; a fatal one ends it: idle, no call left', async () => {
    const t = setup();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: Array<{ type: string; fatal: boolean }> = [];
    function Probe() {
      t.keep(useWebCall('public-key', t.options, { error: (e) => void seen.push({ type: e.type, fatal: e.fatal }) }));
      return null;
    }
    const view = render(<Probe />);
    await t.read().start('assistant-1');
    await until(() => expect(t.read().state).toBe('active'));
    const transport = t.transports.last;
    transport.message('listening');
    // The assistant's audio cannot start (autoplay refused): the call goes on.
    (t.options.environment as FakeEnvironment).playFailure = new DOMException('play() failed', 'NotAllowedError');
    transport.track('audio');
    await until(() => expect(t.read().listening).toBe(true));
    await until(() => expect(seen).toEqual([{ type: 'audio-start-failed', fatal: false }]));
    expect(t.read().state).toBe('active');
    expect(t.read().error).toBeNull();
    expect(t.transports.live()).toHaveLength(1);
    // A refused camera-in-use error is not fatal either; a refused microphone is.
    transport.emit({ type: 'camera-error', error: { type: 'cam-in-use' } });
    await until(() => expect(warn).toHaveBeenCalled());
    await settle();
    expect(t.read().state).toBe('active');
    transport.emit({ type: 'fatal-error', error: { type: 'ejected', errorMsg: 'Meeting has ended' } });
    await until(() => expect(t.read().state).toBe('idle'));
    expect(seen).toEqual([
      { type: 'audio-start-failed', fatal: false },
      { type: 'daily-error', fatal: true },
    ]);
    expect(t.read()).toMatchObject({ state: 'idle', listening: false, transcript: null, error: { type: 'daily-error', fatal: true } });
    expect(t.transports.live()).toHaveLength(0);
    expect(transport.destroyed).toBe(true);
    view.unmount();
  });

  it('a refused microphone (camera-error permissions) ends the call from the hook', async () => {
    const t = setup();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const view = t.mount();
    await t.read().start('assistant-1');
    await until(() => expect(t.read().state).toBe('active'));
    t.transports.last.emit({ type: 'camera-error', error: { type: 'permissions', errorMsg: 'denied' } });
    await until(() => expect(t.read().state).toBe('idle'));
    expect(t.transports.live()).toHaveLength(0);
    view.unmount();
  });

  it('call-end leaves nothing behind', async () => {
    const t = setup();
    const view = t.mount();
    await t.read().start('assistant-1');
    await until(() => expect(t.read().state).toBe('active'));
    t.transports.last.emit({ type: 'left' });
    await until(() => expect(t.read().state).toBe('idle'));
    expect(t.transports.live()).toHaveLength(0);
    expect(t.transports.last.destroyed).toBe(true);
    view.unmount();
  });
});
