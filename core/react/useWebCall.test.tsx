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

const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

afterEach(() => vi.restoreAllMocks());

function setup() {
  const api = fakeWebCallApi();
  const transports = scriptedTransports();
  const options: UseWebCallOptions = { fetch: api.fetch, transport: transports.factory, environment: new FakeEnvironment() };
  let latest: UseWebCall | undefined;
  return { api, transports, options, read: () => latest as UseWebCall, keep: (hook: UseWebCall) => void (latest = hook) };
}

describe('useWebCall', () => {
  it('follows the call: starting, active, listening, transcript and volume, then idle after stop', async () => {
    const t = setup();
    function Probe() {
      t.keep(useWebCall('public-key', t.options));
      return null;
    }
    const view = render(<Probe />);
    expect(t.read().state).toBe('idle');
    const started = t.read().start('assistant-1', { firstMessage: 'Hi' });
    await settle();
    expect(await started).toMatchObject({ id: 'call-1' });
    expect(t.read().state).toBe('active');
    expect(t.read().listening).toBe(false);
    t.transports.last.message('listening');
    t.transports.last.message(JSON.stringify({ type: 'transcript', role: 'assistant', transcriptType: 'final', transcript: 'Hi' }));
    await settle();
    expect(t.read().listening).toBe(true);
    expect(t.read().transcript).toEqual({ role: 'assistant', text: 'Hi', final: true });
    t.read().setMuted(true);
    await settle();
    expect(t.read().muted).toBe(true);
    expect(t.transports.last.localAudio()).toBe(false);
    await t.read().stop();
    await settle();
    expect(t.read().state).toBe('idle');
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
    await settle();
    expect(t.api.requests).toHaveLength(1);
    expect(t.transports.live()).toHaveLength(1);
    expect(t.read().state).toBe('active');
    view.unmount();
    await settle();
    expect(t.transports.live()).toHaveLength(0);
  });
});
