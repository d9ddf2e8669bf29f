import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEnvironment, harness, jsonResponse, webCallBody } from './testing.js';
import type { CallStartFailedEvent, CallStartProgressEvent, CallStartSuccessEvent, WebCallError } from './types.js';
import { WebCall } from './index.js';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const STAGES = [
  'initialization',
  'web-call-creation',
  'daily-call-object-creation',
  'mobile-permissions',
  'daily-call-join',
  'video-recording-setup',
  'video-recording-started',
  'audio-observer-setup',
  'audio-processing-setup',
];

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('start', () => {
  it('runs every stage in order, each started then completed with its duration', async () => {
    const h = harness({ script: { join: () => wait(250) } });
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(250);
    const call = await started;

    expect(call?.id).toBe('call-1');
    expect(h.stages()).toEqual(STAGES.flatMap((stage) => [`${stage}:started`, `${stage}:completed`]));
    const completed = (h.named('call-start-progress') as CallStartProgressEvent[]).filter((event) => event.status === 'completed');
    expect(completed.every((event) => typeof event.duration === 'number')).toBe(true);
    expect(completed.find((event) => event.stage === 'daily-call-join')?.duration).toBe(250);
    expect(completed.find((event) => event.stage === 'web-call-creation')?.metadata).toEqual({ callId: 'call-1', videoRecordingEnabled: false, voiceProvider: '11labs' });
    const success = h.named('call-start-success')[0] as CallStartSuccessEvent;
    expect(success).toEqual({ totalDuration: 250, callId: 'call-1', timestamp: '2026-01-01T00:00:00.250Z' });
    expect(h.call.state).toBe('active');
    // The local level observer starts only because the recorder listens to local-volume-level.
    expect(h.transports.last.methods()).toEqual(['subscribe', 'join', 'startRemoteAudioLevelObserver', 'setNoiseCancellation', 'startLocalAudioLevelObserver']);
    expect(h.transports.last.calls[1]?.args[0]).toEqual({ url: 'https://vapi.daily.co/room-1' });
    expect(h.transports.last.noiseCancellation).toBe(true);
  });

  it('posts the creation payload with the public key, ids as ids and objects inline', async () => {
    const h = harness();
    await h.call.start({ name: 'Inline', firstMessage: 'Hi' }, { variableValues: { name: 'Ada' } }, 'squad-1', { name: 'Flow', nodes: [], edges: [] }, { variableValues: {} });
    const [request] = h.api.requests;
    expect(request?.url).toBe('http://127.0.0.1:9/api/call/web');
    expect(request?.headers.Authorization).toBe('Bearer public-key');
    expect(request?.body).toEqual({
      assistant: { name: 'Inline', firstMessage: 'Hi' },
      assistantOverrides: { variableValues: { name: 'Ada' } },
      squadId: 'squad-1',
      workflow: { name: 'Flow', nodes: [], edges: [] },
      workflowOverrides: { variableValues: {} },
    });
    await h.call.stop();
    await h.call.start(undefined, undefined, { members: [] }, 'workflow-1');
    expect(h.api.requests[1]?.body).toEqual({ squad: { members: [] }, workflowId: 'workflow-1' });
  });

  it('throws the validation message and emits validation-error when no target is given', async () => {
    const h = harness();
    await expect(h.call.start()).rejects.toThrow('Assistant or Squad or Workflow must be provided.');
    await expect(h.call.start('', undefined, '', '')).rejects.toThrow('Assistant or Squad or Workflow must be provided.');
    const error = h.named('error')[0] as WebCallError;
    expect(error.type).toBe('validation-error');
    expect(error.stage).toBe('input-validation');
    expect(error.error.message).toBe('Assistant or Squad or Workflow must be provided.');
    expect(h.api.requests).toHaveLength(0);
    expect(h.call.state).toBe('idle');
  });

  it('refuses a start while starting or active with already-started, returning null', async () => {
    const h = harness({ script: { join: () => wait(100) } });
    const first = h.call.start('assistant-1');
    expect(await h.call.start('assistant-1')).toBeNull();
    await vi.advanceTimersByTimeAsync(100);
    expect(await first).not.toBeNull();
    expect(await h.call.start('assistant-1')).toBeNull();
    const refusals = (h.named('call-start-progress') as CallStartProgressEvent[]).filter((event) => event.stage === 'validation');
    expect(refusals).toHaveLength(2);
    expect(refusals[0]).toMatchObject({ status: 'failed', metadata: { reason: 'already-started' } });
    expect(h.api.requests).toHaveLength(1);
    expect(h.transports.transports).toHaveLength(1);
  });

  it('uses each instance its own key and base URL (nothing shared between instances)', async () => {
    const seen: Array<[string, string | null]> = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      seen.push([url, new Headers(init.headers).get('authorization')]);
      return jsonResponse(201, webCallBody());
    }) as unknown as typeof fetch;
    const env = new FakeEnvironment();
    const make = (key: string, base: string) => new WebCall(key, base, undefined, undefined, { fetch: fetchImpl, environment: env, transport: harness().transports.factory });
    const a = make('key-a', 'http://127.0.0.1:1');
    const b = make('key-b', 'http://127.0.0.1:2/');
    await a.start('x');
    await b.start('x');
    expect(seen).toEqual([
      ['http://127.0.0.1:1/call/web', 'Bearer key-a'],
      ['http://127.0.0.1:2/call/web', 'Bearer key-b'],
    ]);
  });

  it('defaults the base URL to the platform host', async () => {
    const urls: string[] = [];
    const call = new WebCall('k', undefined, undefined, undefined, {
      fetch: (async (url: string) => (urls.push(url), jsonResponse(201, webCallBody()))) as unknown as typeof fetch,
      environment: new FakeEnvironment(),
      transport: harness().transports.factory,
    });
    await call.start('a');
    expect(urls).toEqual(['https://api.vapi.ai/call/web']);
  });
});

describe('a failing stage', () => {
  type Case = { stage: string; type?: string; setup: Parameters<typeof harness>[0]; mobile?: boolean; recording?: boolean };
  const boom = (message: string) => () => {
    throw new Error(message);
  };
  const cases: Case[] = [
    { stage: 'initialization', setup: { baseUrl: 'not a url' } },
    { stage: 'web-call-creation', setup: { respond: () => jsonResponse(401, { message: 'Invalid Key. Hot tip, you may be using the private key instead of the public key' }) } },
    { stage: 'daily-call-object-creation', type: 'daily-call-object-creation-error', setup: { create: boom('Failed to fetch dynamically imported module') } },
    { stage: 'mobile-permissions', setup: {}, mobile: true },
    { stage: 'daily-call-join', type: 'daily-call-join-error', setup: { script: { join: () => Promise.reject(new Error('join failed')) } } },
    { stage: 'video-recording-setup', type: 'video-recording-setup-error', recording: true, setup: { script: { startRecording: boom('only supported after join') } } },
    { stage: 'audio-observer-setup', type: 'audio-observer-setup-error', setup: { script: { startRemoteAudioLevelObserver: () => Promise.reject(new Error('observer failed')) } } },
    { stage: 'audio-processing-setup', type: 'audio-processing-setup-error', setup: { script: { setNoiseCancellation: () => Promise.reject(new Error('KrispInitError: Canceled')) } } },
  ];

  it.each(cases)('$stage emits its error, start-method-error and call-start-failed, cleans up and returns null', async ({ stage, type, setup, mobile, recording }) => {
    const env = new FakeEnvironment();
    if (mobile) {
      env.agent = 'Mozilla/5.0 (Linux; Android 14)';
      env.denyMicrophone = new DOMException('Permission denied', 'NotAllowedError');
    }
    const respond = recording ? () => jsonResponse(201, webCallBody({ artifactPlan: { videoRecordingEnabled: true } })) : undefined;
    const h = harness({ env, respond, ...setup });
    const result = await h.call.start('assistant-1');

    expect(result).toBeNull();
    expect(h.stages()).toContain(`${stage}:failed`);
    expect(h.stages().at(-1)).toBe(`${stage}:failed`);
    const failedStage = (h.named('call-start-progress') as CallStartProgressEvent[]).find((event) => event.stage === stage && event.status === 'failed');
    expect(failedStage?.duration).toBeTypeOf('number');
    const failed = h.named('call-start-failed') as CallStartFailedEvent[];
    expect(failed).toHaveLength(1);
    expect(failed[0]?.stage).toBe(stage);
    const types = (h.named('error') as WebCallError[]).map((error) => error.type);
    expect(types).toEqual(type ? [type, 'start-method-error'] : ['start-method-error']);
    expect((h.named('error') as WebCallError[]).at(-1)?.stage).toBe(stage);
    expect(h.call.state).toBe('idle');
    expect(h.named('state')).toEqual(['starting', 'ending', 'idle']);
    expect(h.transports.live()).toHaveLength(0);
    expect(h.transports.transports.every((transport) => transport.destroyed)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(h.reports).toHaveLength(1);
    expect(h.reports[0]).toMatchObject({ type: 'start-method-error', stage });
    // The instance is usable again after the failure.
    expect(h.call.state).toBe('idle');
  });

  it('the failed stage event carries how long the stage ran', async () => {
    const h = harness({ script: { join: () => wait(250).then(() => Promise.reject(new Error('join failed'))) } });
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(250);
    expect(await started).toBeNull();
    const failed = (h.named('call-start-progress') as CallStartProgressEvent[]).find((event) => event.status === 'failed');
    expect(failed).toMatchObject({ stage: 'daily-call-join', status: 'failed', duration: 250, metadata: { error: 'join failed' } });
    expect((h.named('call-start-failed')[0] as CallStartFailedEvent).totalDuration).toBe(250);
  });

  it('reports the HTTP status and the body message of a refused creation', async () => {
    const h = harness({ respond: () => jsonResponse(400, { message: ['assistantId must be a UUID'] }) });
    await h.call.start('nope');
    expect((h.named('call-start-failed')[0] as CallStartFailedEvent).error).toBe('Creating the web call failed: 400 assistantId must be a UUID');
  });

  it('fails creation when the call has no room URL', async () => {
    const h = harness({ respond: () => jsonResponse(201, { id: 'call-9' }) });
    expect(await h.call.start('a')).toBeNull();
    expect(h.named('call-start-failed')[0] as CallStartFailedEvent).toMatchObject({ stage: 'web-call-creation', error: 'The created web call has no webCallUrl.' });
  });
});

describe('mobile', () => {
  it.each([
    ['Android', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile', 0],
    ['iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', 5],
    ['iPadOS (reports a Mac with touch)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Version/17.0 Safari/605.1.15', 5],
  ])('%s asks for the microphone first, then waits 1000 ms before joining', async (_name, agent, touch) => {
    const env = new FakeEnvironment();
    env.agent = agent;
    env.touchPoints = touch;
    const h = harness({ env });
    const started = h.call.start('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(env.microphoneRequests).toBe(1);
    expect(h.transports.last.methods()).not.toContain('join');
    await vi.advanceTimersByTimeAsync(999);
    expect(h.transports.last.methods()).not.toContain('join');
    await vi.advanceTimersByTimeAsync(1);
    expect(await started).not.toBeNull();
    const mobile = (h.named('call-start-progress') as CallStartProgressEvent[]).filter((event) => event.stage === 'mobile-permissions');
    expect(mobile[0]?.metadata).toEqual({ isMobile: true });
    expect(mobile[1]).toMatchObject({ status: 'completed', duration: 1000, metadata: { action: 'permissions-wait' } });
  });

  it('a desktop Mac without touch joins at once and never prompts', async () => {
    const env = new FakeEnvironment();
    env.agent = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Chrome/140.0';
    const h = harness({ env });
    expect(await h.call.start('a')).not.toBeNull();
    expect(env.microphoneRequests).toBe(0);
    expect((h.named('call-start-progress') as CallStartProgressEvent[]).find((event) => event.stage === 'mobile-permissions' && event.status === 'completed')?.metadata).toEqual({
      action: 'skipped-not-mobile',
    });
  });
});

describe('video recording', () => {
  const recorded = () => jsonResponse(201, webCallBody({ artifactPlan: { videoRecordingEnabled: true } }));

  it('records at 1280x720 with a fixed background and the default layout, and lets the assistant speak once it starts', async () => {
    const h = harness({ respond: recorded, script: { join: () => wait(200) } });
    const started = h.call.start('a');
    await vi.advanceTimersByTimeAsync(200);
    await started;
    const transport = h.transports.last;
    expect(transport.request.videoSource).toBe(true);
    expect(transport.recordings).toEqual([{ width: 1280, height: 720, backgroundColor: '#FF1F2D3D', layout: { preset: 'default' } }]);
    expect(h.stages()).toContain('video-recording-started:started');
    expect(h.stages()).not.toContain('video-recording-started:completed');
    await vi.advanceTimersByTimeAsync(1500);
    transport.emit({ type: 'pass-through', name: 'recording-started', payload: { action: 'recording-started' } });
    expect(transport.sent.map((data) => JSON.parse(data))).toContainEqual({ type: 'control', control: 'say-first-message', videoRecordingStartDelaySeconds: 1.5 });
    const done = (h.named('call-start-progress') as CallStartProgressEvent[]).find((event) => event.stage === 'video-recording-started' && event.status === 'completed');
    expect(done?.metadata).toEqual({ delaySeconds: 1.5 });
    expect(h.named('recording-started')).toHaveLength(1);
    // Participants' video is received as well as audio while recording.
    transport.emit({ type: 'participant-joined', participant: { sessionId: 'p2', userName: 'Vapi Speaker', local: false } });
    expect(transport.calls.find((call) => call.method === 'receive')?.args).toEqual(['p2', { audio: true, video: true }]);
    await h.call.stop();
    expect(transport.recordingStops).toBe(1);
    expect(transport.methods().indexOf('stopRecording')).toBeLessThan(transport.methods().indexOf('leave'));
  });

  it('a meeting token starts the recording on join, so the client does not', async () => {
    const h = harness({ respond: () => jsonResponse(201, webCallBody({ artifactPlan: { videoRecordingEnabled: true }, transport: { callToken: 'secret-token' } })) });
    await h.call.start('a');
    const transport = h.transports.last;
    expect(transport.calls.find((call) => call.method === 'join')?.args[0]).toEqual({ url: 'https://vapi.daily.co/room-1', token: 'secret-token' });
    expect(transport.recordings).toEqual([]);
    expect((h.named('call-start-progress') as CallStartProgressEvent[]).find((event) => event.stage === 'video-recording-setup' && event.status === 'completed')?.metadata).toEqual({
      action: 'auto-started-via-meeting-token',
    });
  });

  it('stops the recording when the meeting ends on its own', async () => {
    const h = harness({ respond: recorded });
    await h.call.start('a');
    const transport = h.transports.last;
    transport.joined = false;
    transport.emit({ type: 'left' });
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.recordingStops).toBe(1);
    expect(h.call.state).toBe('idle');
  });

  it('without recording, no video is received and the camera stays off', async () => {
    const h = harness();
    await h.call.start('a');
    const transport = h.transports.last;
    expect(transport.request.videoSource).toBe(false);
    transport.emit({ type: 'participant-joined', participant: { sessionId: 'p2', userName: 'x', local: false } });
    expect(transport.calls.find((call) => call.method === 'receive')?.args).toEqual(['p2', { audio: true, video: false }]);
  });
});

describe('noise cancellation', () => {
  it('can be switched off', async () => {
    const h = harness({ options: { noiseCancellation: false } });
    await h.call.start('a');
    expect(h.transports.last.methods()).not.toContain('setNoiseCancellation');
    expect(h.stages().at(-1)).toBe('audio-processing-setup:completed');
  });
});

describe('video-recording-started failing', () => {
  it('a recording error before the recording starts fails that stage without ending the call', async () => {
    const h = harness({ respond: () => jsonResponse(201, webCallBody({ artifactPlan: { videoRecordingEnabled: true } })) });
    await h.call.start('a');
    h.transports.last.emit({ type: 'pass-through', name: 'recording-error', payload: { errorMsg: 'recording start timed out' } });
    const failed = (h.named('call-start-progress') as CallStartProgressEvent[]).find((event) => event.stage === 'video-recording-started' && event.status === 'failed');
    expect(failed?.metadata).toEqual({ error: 'recording start timed out' });
    expect(h.named('recording-error')).toHaveLength(1);
    expect(h.call.state).toBe('active');
    expect(h.transports.last.sent).toEqual([]);
  });
});

describe('reconnect', () => {
  it('joins an existing call without creating one', async () => {
    const h = harness();
    await h.call.reconnect({ webCallUrl: 'https://vapi.daily.co/existing', id: 'call-7' });
    expect(h.api.requests).toHaveLength(0);
    expect(h.transports.last.calls.find((call) => call.method === 'join')?.args[0]).toEqual({ url: 'https://vapi.daily.co/existing' });
    expect(h.call.state).toBe('active');
    await expect(h.call.reconnect({ webCallUrl: 'https://vapi.daily.co/other' })).rejects.toThrow('Cannot reconnect while a call is already in progress');
    await h.call.stop();
    await expect(h.call.reconnect({ webCallUrl: '' })).rejects.toThrow('webCallUrl is required for reconnection.');
  });

  it('throws when the rejoin fails', async () => {
    const h = harness({ script: { join: () => Promise.reject(new Error('room gone')) } });
    await expect(h.call.reconnect({ webCallUrl: 'https://vapi.daily.co/gone' })).rejects.toThrow('Reconnecting to the call failed.');
    expect((h.named('call-start-failed')[0] as CallStartFailedEvent).stage).toBe('daily-call-join');
    expect(h.call.state).toBe('idle');
  });
});
