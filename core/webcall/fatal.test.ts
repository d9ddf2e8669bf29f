// Which errors end a call: every error event carries `fatal`, decided in one place (errors.ts),
// and a failed start emits call-start-failed and start-method-error before it cleans up.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isFatalErrorType } from './errors.js';
import { FakeEnvironment, harness, jsonResponse, webCallBody } from './testing.js';
import type { CallStartFailedEvent, CallStartProgressEvent, WebCallError } from './types.js';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const settle = () => wait(5);

afterEach(() => vi.restoreAllMocks());

describe('the fatal flag', () => {
  it('follows the catalogue: start errors and daily-error are fatal, the rest is not', () => {
    for (const type of [
      'validation-error',
      'daily-call-object-creation-error',
      'daily-call-join-error',
      'video-recording-setup-error',
      'audio-observer-setup-error',
      'audio-processing-setup-error',
      'start-method-error',
      'daily-error',
    ]) {
      expect(isFatalErrorType(type), type).toBe(true);
    }
    for (const type of ['audio-start-failed', 'audio-processor-recovery-error', 'camera-error', 'something-new']) {
      expect(isFatalErrorType(type), type).toBe(false);
    }
  });

  it('validation-error is fatal (start throws, no call)', async () => {
    const h = harness();
    await expect(h.call.start()).rejects.toThrow('Assistant or Squad or Workflow must be provided.');
    expect(h.named('error')).toMatchObject([{ type: 'validation-error', fatal: true }]);
    expect(h.call.state).toBe('idle');
  });

  it('a failed start: the stage error, call-start-failed, start-method-error (all fatal), then the cleanup', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const h = harness({ script: { join: () => Promise.reject(new Error('join failed')) } });
    expect(await h.call.start('assistant-1')).toBeNull();
    const order = h.events
      .filter((event) => ['error', 'call-start-failed', 'state'].includes(event.name) || (event.name === 'call-start-progress' && (event.args[0] as CallStartProgressEvent).status === 'failed'))
      .map((event) => (event.name === 'error' ? `error:${(event.args[0] as WebCallError).type}` : event.name === 'state' ? `state:${String(event.args[0])}` : event.name));
    expect(order).toEqual(['state:starting', 'call-start-progress', 'error:daily-call-join-error', 'call-start-failed', 'error:start-method-error', 'state:ending', 'state:idle']);
    expect((h.named('error') as WebCallError[]).every((error) => error.fatal)).toBe(true);
    // The cleanup has not begun when the two failure events go out: the transport was still there.
    const destroyIndex = h.transports.last.methods().indexOf('destroy');
    expect(destroyIndex).toBeGreaterThan(-1);
    expect(h.transports.live()).toHaveLength(0);
    expect(h.reports).toHaveLength(1);
  });

  it('the failure events go out before any cleanup step', async () => {
    const seen: string[] = [];
    const h = harness({ script: { join: () => Promise.reject(new Error('join failed')) } });
    h.call.on('call-start-failed', () => seen.push(`failed:destroyed=${h.transports.last.destroyed}:${h.call.state}`));
    h.call.on('error', (e) => seen.push(`${e.type}:destroyed=${h.transports.last.destroyed}:${h.call.state}`));
    await h.call.start('assistant-1');
    expect(seen).toEqual(['daily-call-join-error:destroyed=false:starting', 'failed:destroyed=false:starting', 'start-method-error:destroyed=false:starting']);
  });

  it('a fatal daily-error during the call ends it, releases the transport and is reported once', async () => {
    const h = harness();
    await h.call.start('assistant-1');
    const transport = h.transports.last;
    transport.emit({ type: 'fatal-error', error: { type: 'ejected', errorMsg: 'Meeting has ended', token: 'meeting-token-secret' } });
    await settle();
    expect(h.named('error')).toMatchObject([{ type: 'daily-error', fatal: true }]);
    expect(h.call.state).toBe('idle');
    expect(transport.destroyed).toBe(true);
    expect(h.reports).toHaveLength(1);
    expect(JSON.stringify(h.reports)).not.toContain('meeting-token-secret');
  });

  it('audio-start-failed is not fatal: the call goes on, nothing is reported', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const env = new FakeEnvironment();
    const h = harness({ env });
    await h.call.start('assistant-1');
    env.playFailure = new DOMException('play() failed', 'NotAllowedError');
    h.transports.last.track('audio');
    await settle();
    expect(h.named('error')).toMatchObject([{ type: 'audio-start-failed', fatal: false }]);
    expect(h.call.state).toBe('active');
    expect(h.transports.live()).toHaveLength(1);
    expect(h.reports).toHaveLength(0);
  });

  it('audio-processor-recovery-error is not fatal: the call goes on', async () => {
    let fail = false;
    const h = harness({ script: { setNoiseCancellation: () => (fail ? Promise.reject(new Error('processor stuck')) : Promise.resolve()) } });
    await h.call.start('assistant-1');
    fail = true;
    h.transports.last.emit({ type: 'nonfatal-error', error: { type: 'audio-processor-error' } });
    await settle();
    expect(h.named('error')).toMatchObject([{ type: 'audio-processor-recovery-error', stage: 'audio-processor-recovery', fatal: false }]);
    expect(h.call.state).toBe('active');
    expect(h.transports.live()).toHaveLength(1);
    expect(h.reports).toHaveLength(0);
  });

  it('a camera-error is fatal only when the microphone was refused', async () => {
    const h = harness();
    await h.call.start('assistant-1');
    h.transports.last.emit({ type: 'camera-error', error: { type: 'cam-in-use', errorMsg: 'camera in use' } });
    h.transports.last.emit({ type: 'camera-error', error: { type: 'permissions', errorMsg: 'denied' } });
    expect((h.named('camera-error') as WebCallError[]).map((e) => e.fatal)).toEqual([false, true]);
  });
});

describe('video-recording-started failing during the start', () => {
  it('fails the start with call-start-failed and start-method-error at that stage, then cleans up', async () => {
    let transportEmit: (() => void) | null = null;
    const h = harness({
      respond: () => jsonResponse(201, webCallBody({ artifactPlan: { videoRecordingEnabled: true } })),
      script: {
        startRemoteAudioLevelObserver: async () => {
          transportEmit?.();
          await wait(20);
        },
      },
    });
    transportEmit = () => h.transports.last.emit({ type: 'pass-through', name: 'recording-error', payload: { errorMsg: 'recording start timed out' } });
    expect(await h.call.start('assistant-1')).toBeNull();
    const failedStage = (h.named('call-start-progress') as CallStartProgressEvent[]).find((event) => event.stage === 'video-recording-started' && event.status === 'failed');
    expect(failedStage?.metadata).toEqual({ error: 'recording start timed out' });
    expect(typeof failedStage?.duration).toBe('number');
    expect((h.named('call-start-failed') as CallStartFailedEvent[]).map((event) => event.stage)).toEqual(['video-recording-started']);
    expect(h.named('error')).toMatchObject([{ type: 'start-method-error', stage: 'video-recording-started', fatal: true }]);
    // The stage that was running when the recording failed is not reported as failed itself.
    expect(h.stages()).not.toContain('audio-observer-setup:failed');
    expect(h.call.state).toBe('idle');
    expect(h.transports.live()).toHaveLength(0);
  });
});
