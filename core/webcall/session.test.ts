import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { harness, jsonResponse, webCallBody } from './testing.js';
import type { WebCallError } from './types.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function live(setup: Parameters<typeof harness>[0] = {}) {
  const h = harness(setup);
  await h.call.start('assistant-1');
  return { ...h, transport: h.transports.last };
}

describe('in-call messages', () => {
  it("'listening' emits call-start; JSON messages are emitted as message", async () => {
    const h = await live();
    h.transport.message('listening');
    h.transport.message(JSON.stringify({ type: 'transcript', role: 'assistant', transcript: 'Hello' }));
    h.transport.message({ type: 'model-output', output: 'x' });
    expect(h.named('call-start')).toHaveLength(1);
    expect(h.named('message')).toEqual([
      { type: 'transcript', role: 'assistant', transcript: 'Hello' },
      { type: 'model-output', output: 'x' },
    ]);
  });

  it('logs unparsable messages and emits nothing for them', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const h = await live();
    const before = h.events.length;
    h.transport.message('{not json');
    expect(h.events.length).toBe(before);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('say and send go out as JSON app messages', async () => {
    const h = await live();
    h.call.say('Hold on', true);
    h.call.send({ type: 'add-message', message: { role: 'system', content: 'Be brief' } });
    expect(h.transport.sent.map((data) => JSON.parse(data))).toEqual([
      { type: 'say', message: 'Hold on', endCallAfterSpoken: true, interruptionsEnabled: false, interruptAssistantEnabled: false },
      { type: 'add-message', message: { role: 'system', content: 'Be brief' } },
    ]);
  });
});

describe('remote audio levels', () => {
  it('reads levels every 100 ms: volume is sum / 0.15 capped at 1; speech starts above 0.01 and ends 1000 ms after the last loud sample', async () => {
    const h = await live();
    h.transport.levels = { a: 0.004, b: 0.005 };
    await vi.advanceTimersByTimeAsync(100);
    expect(h.named('volume-level')).toEqual([expect.closeTo(0.06)]);
    expect(h.named('speech-start')).toHaveLength(0);

    h.transport.levels = { a: 0.006, b: 0.005 };
    await vi.advanceTimersByTimeAsync(100);
    expect(h.names().filter((name) => name === 'speech-start')).toHaveLength(1);

    h.transport.levels = { a: 0.2, b: 0.1 };
    await vi.advanceTimersByTimeAsync(100);
    expect(h.named('volume-level').at(-1)).toBe(1);

    h.transport.levels = { a: 0 };
    await vi.advanceTimersByTimeAsync(900);
    expect(h.named('speech-end')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(h.named('speech-end')).toHaveLength(1);
    expect(h.named('speech-start')).toHaveLength(1);
  });
});

describe('speaker filter', () => {
  it("plays only 'Vapi Speaker' audio and video, and tells the assistant it is playable", async () => {
    const h = await live();
    h.transport.track('audio', { userName: 'Someone else', sessionId: 'other' });
    h.transport.track('audio', { userName: 'Vapi Speaker', local: true, sessionId: 'me' });
    h.transport.track('video', { userName: 'Someone else', sessionId: 'other' });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.env.elements.size).toBe(0);
    expect(h.named('audio')).toHaveLength(0);
    expect(h.named('video')).toHaveLength(0);

    const video = h.transport.track('video');
    h.transport.track('audio');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.named('video')).toEqual([video]);
    expect(h.env.elements.size).toBe(1);
    expect(h.named('audio')).toEqual([h.call.getAudioPlayer()]);
    expect(h.transport.sent.filter((data) => data === 'playable')).toHaveLength(2);

    h.transport.emit({ type: 'participant-left', participant: { sessionId: 'speaker-1', userName: 'Vapi Speaker', local: false } });
    expect(h.env.elements.size).toBe(0);
    expect(h.call.getAudioPlayer()).toBeNull();
  });

  it('applies the remembered volume and drops a player that finishes building after the call ended', async () => {
    const h = await live();
    h.call.setVolume(0.4);
    h.transport.track('audio');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.call.getAudioPlayer()?.volume).toBe(0.4);
    h.call.setVolume(7);
    expect(h.call.getAudioPlayer()?.volume).toBe(1);

    let release: () => void = () => {};
    h.env.playGate = new Promise<void>((resolve) => (release = resolve));
    h.transport.track('audio', { sessionId: 'speaker-2' });
    await h.call.stop();
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.env.elements.size).toBe(0);
  });

  it('reports audio that cannot start (autoplay) as audio-start-failed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = await live();
    h.env.playFailure = new DOMException('play() failed', 'NotAllowedError');
    h.transport.track('audio');
    await vi.advanceTimersByTimeAsync(0);
    expect((h.named('error') as WebCallError[]).map((error) => error.type)).toEqual(['audio-start-failed']);
    expect(h.env.elements.size).toBe(0);
    expect(h.call.state).toBe('active');
  });
});

describe('audio processor fallback', () => {
  it('turns the processor off and re-enables the microphone', async () => {
    const h = await live();
    h.transport.audio = false; // the failed processor took the microphone down
    h.transport.emit({ type: 'nonfatal-error', error: { type: 'audio-processor-error', errorMsg: 'krisp failed' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.transport.noiseCancellation).toBe(false);
    expect(h.call.isMuted()).toBe(false);
  });

  it('keeps a user who muted muted', async () => {
    const h = await live();
    h.call.setMuted(true);
    h.transport.emit({ type: 'nonfatal-error', error: { type: 'audio-processor-error', errorMsg: 'krisp failed' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.transport.noiseCancellation).toBe(false);
    expect(h.call.isMuted()).toBe(true);
    h.call.setMuted(false);
    expect(h.call.isMuted()).toBe(false);
  });
});

describe('methods that need a call', () => {
  it("throw 'Call object is not available.' without one", async () => {
    const h = harness();
    expect(() => h.call.setMuted(true)).toThrow('Call object is not available.');
    await expect(h.call.increaseMicLevel(2)).rejects.toThrow('Call object is not available.');
    await expect(h.call.setInputDevicesAsync({ audioDeviceId: 'x' })).rejects.toThrow('Call object is not available.');
    expect(() => h.call.startRecording()).toThrow('Call object is not available.');
    expect(h.call.isMuted()).toBe(false);
    expect(h.call.getDailyCallObject()).toBeNull();
    expect(h.call.getLocalAudioLevel()).toBe(0);
    h.call.say('nobody hears this');
    await h.call.setOutputDeviceAsync({ outputDeviceId: 'x' });
  });

  it('increaseMicLevel swaps in a boosted track and releases it (and its audio context) at the end', async () => {
    const h = await live();
    await h.call.increaseMicLevel(2);
    await h.call.increaseMicLevel(3);
    expect(h.env.openAudioContexts).toBe(1);
    expect(h.transport.calls.filter((call) => call.method === 'setInputDevices')).toHaveLength(2);
    await h.call.stop();
    expect(h.env.openAudioContexts).toBe(0);
    expect(h.env.tracks.size).toBe(0);
  });

  it('setInputDevicesAsync drops audioSource:false (it breaks Chrome 140+)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const h = await live();
    await h.call.setInputDevicesAsync({ audioSource: false, videoDeviceId: 'cam' });
    expect(h.transport.calls.find((call) => call.method === 'setInputDevices')?.args[0]).toEqual({ videoDeviceId: 'cam' });
  });
});

describe('end of the call', () => {
  it('end() sends end-call before leaving and resolves once everything is released', async () => {
    const h = await live();
    h.transport.track('audio');
    await vi.advanceTimersByTimeAsync(0);
    await h.call.end();
    const methods = h.transport.methods();
    expect(h.transport.sent).toContain(JSON.stringify({ type: 'end-call' }));
    expect(methods.indexOf('sendAppMessage')).toBeLessThan(methods.indexOf('leave'));
    expect(h.transport.destroyed).toBe(true);
    expect(h.call.state).toBe('idle');
    expect(h.env.elements.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("emits call-end, then status-update 'customer-ended-call' when no ended status was seen", async () => {
    const h = await live();
    await h.call.stop();
    expect(h.names().slice(-4)).toEqual(['state', 'call-end', 'message', 'state']);
    expect(h.named('message').at(-1)).toEqual({ type: 'status-update', status: 'ended', endedReason: 'customer-ended-call' });
    expect(h.named('call-end')).toHaveLength(1);
  });

  it('does not invent an ended status when the assistant sent one', async () => {
    const h = await live();
    h.transport.message(JSON.stringify({ type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' }));
    h.transport.joined = false;
    h.transport.emit({ type: 'left' });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.named('message')).toEqual([{ type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' }]);
    expect(h.named('call-end')).toHaveLength(1);
    expect(h.call.state).toBe('idle');
  });

  it('a fatal media error ends the call and reaches the reporter without name, data or tokens', async () => {
    const h = await live();
    h.transport.emit({
      type: 'fatal-error',
      error: {
        action: 'error',
        errorMsg: 'Meeting has ended',
        name: 'Ada Lovelace',
        data: { phone: '+1555' },
        error: { type: 'ejected', msg: 'ejected', callToken: 't', details: { accessToken: 'x', on: 'join' } },
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect((h.named('error') as WebCallError[])[0]).toMatchObject({ type: 'daily-error', error: { message: 'Meeting has ended' } });
    expect(h.call.state).toBe('idle');
    expect(h.named('call-end')).toHaveLength(1);
    expect(h.reports).toHaveLength(1);
    const text = JSON.stringify(h.reports[0]);
    expect(h.reports[0]).toMatchObject({ type: 'daily-error', message: 'Meeting has ended' });
    expect(text).not.toContain('Ada');
    expect(text).not.toContain('+1555');
    expect(text).not.toMatch(/token/i);
    expect(text).toContain('ejected');
  });

  it('a reporter that throws does not break the call', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = harness({
      options: {
        reportError: () => {
          throw new Error('sentry down');
        },
      },
      script: { join: () => Promise.reject(new Error('no')) },
    });
    expect(await h.call.start('a')).toBeNull();
    expect(h.call.state).toBe('idle');
  });
});

describe('events passed on from the media layer', () => {
  it('camera errors, network and recording events, participant updates and local levels', async () => {
    const h = await live();
    h.transport.emit({ type: 'camera-error', error: { errorMsg: { errorMsg: 'denied' }, error: { type: 'permissions', msg: 'denied' } } });
    h.transport.emit({ type: 'pass-through', name: 'network-quality-change', payload: { threshold: 'low' } });
    h.transport.emit({ type: 'pass-through', name: 'recording-error', payload: { errorMsg: 'x' } });
    h.transport.emit({ type: 'participant-updated', participant: { sessionId: 's', userName: 'u', local: false, raw: { session_id: 's' } } });
    h.transport.emit({ type: 'local-audio-level', level: 0.3 });
    expect(h.named('camera-error')[0]).toMatchObject({ type: 'camera-error', error: { error: { type: 'permissions' } } });
    expect(h.named('network-quality-change')).toEqual([{ threshold: 'low' }]);
    expect(h.named('recording-error')).toEqual([{ errorMsg: 'x' }]);
    expect(h.named('daily-participant-updated')).toEqual([{ session_id: 's' }]);
    expect(h.named('local-volume-level')).toEqual([0.3]);
  });

  it('a server-started recording that begins during join still completes video-recording-started', async () => {
    const h = harness({
      respond: () => jsonResponse(201, webCallBody({ artifactPlan: { videoRecordingEnabled: true }, transport: { callToken: 'tok' } })),
      script: { join: () => new Promise<void>((resolve) => setTimeout(resolve, 100)) },
    });
    const started = h.call.start('a');
    await vi.advanceTimersByTimeAsync(50);
    expect(h.transports.last.methods()).toEqual(['subscribe', 'join']);
    h.transports.last.emit({ type: 'pass-through', name: 'recording-started', payload: { action: 'recording-started' } });
    expect(h.transports.last.sent).toEqual([]); // not before the join completes
    await vi.advanceTimersByTimeAsync(50);
    await started;
    expect(h.stages()).toContain('video-recording-started:completed');
    expect(h.transports.last.sent.map((data) => JSON.parse(data))).toContainEqual({ type: 'control', control: 'say-first-message', videoRecordingStartDelaySeconds: 0.05 });
  });
});
