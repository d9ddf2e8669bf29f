// The start pipeline: runs each stage in order, reports it (started, then completed or failed
// with its duration) and stops at the first failure or when the session is interrupted.
import { createWebCall, webCallEndpoint } from './create-call.js';
import type { WebCallPayload } from './create-call.js';
import { isMobileDevice } from './env.js';
import { serializeError, StageFailure } from './errors.js';
import type { Session } from './session.js';
import { LEVEL_INTERVAL_MS } from './speech.js';
import type { DailyAdvancedConfig, DailyFactoryOptions } from './daily-types.js';
import type { StartStage, TransportFactory, WebCallErrorType, WebCallResponse } from './types.js';
import { VoiceError } from '../errors.js';

/** Recording settings: 1280x720, a fixed background colour, the default layout. */
export const RECORDING = { width: 1280, height: 720, backgroundColor: '#FF1F2D3D', layout: { preset: 'default' as const } };

/** Error type emitted when a stage fails (stages without one only emit start-method-error). */
const STAGE_ERROR: Partial<Record<StartStage, WebCallErrorType>> = {
  'daily-call-object-creation': 'daily-call-object-creation-error',
  'daily-call-join': 'daily-call-join-error',
  'video-recording-setup': 'video-recording-setup-error',
  'audio-observer-setup': 'audio-observer-setup-error',
  'audio-processing-setup': 'audio-processing-setup-error',
};

export { StageFailure };

/** Everything one start needs, fixed when start() is called. */
export interface StartPlan {
  publicKey: string;
  baseUrl: string;
  fetch: typeof fetch | undefined;
  /** Create a call with this payload, or rejoin an existing one. */
  payload?: WebCallPayload;
  existing?: WebCallResponse & { webCallUrl: string };
  flags: { hasAssistant: boolean; hasSquad: boolean; hasWorkflow: boolean };
  factory: TransportFactory;
  dailyConfig: DailyAdvancedConfig;
  callObjectOptions: DailyFactoryOptions;
  noiseCancellation: boolean;
}

/** Runs a stage: reports it, runs `work` under the session's interruption, reports the result. */
async function stage<T>(
  session: Session,
  name: StartStage,
  work: () => Promise<T> | T,
  startedMeta?: Record<string, unknown>,
  completedMeta?: (result: T) => Record<string, unknown> | undefined,
): Promise<T> {
  session.checkOpen();
  session.stage = name;
  const { clock } = session.host;
  const began = clock.now();
  session.progress(name, 'started', undefined, startedMeta);
  let result: T;
  try {
    result = await session.guard(Promise.resolve().then(work));
  } catch (error) {
    // Closed, or failed by a later stage (video-recording-started) while this one ran.
    if (session.closed || error instanceof StageFailure) throw error;
    const duration = clock.now() - began;
    const serialized = serializeError(error);
    session.progress(name, 'failed', duration, { error: serialized.message });
    const type = STAGE_ERROR[name];
    if (type) session.emitError({ type, stage: name, error: serialized, duration });
    throw new StageFailure(name, error);
  }
  session.progress(name, 'completed', clock.now() - began, completedMeta?.(result));
  return result;
}

/** Runs every start stage; resolves with the call, or throws a StageFailure (or the interruption). */
export async function runStart(session: Session, plan: StartPlan): Promise<WebCallResponse> {
  const { host } = session;
  const endpoint = await stage(
    session,
    'initialization',
    () => {
      if (plan.existing) return '';
      if (!(plan.fetch ?? globalThis.fetch)) throw new VoiceError('No fetch implementation is available.');
      return webCallEndpoint(plan.baseUrl);
    },
    plan.flags,
  );

  const call =
    plan.existing ??
    (await stage(
      session,
      'web-call-creation',
      () => createWebCall(plan.fetch ?? globalThis.fetch.bind(globalThis), endpoint, plan.publicKey, plan.payload ?? {}, session.abort.signal),
      undefined,
      (created) => ({
        callId: created.id || 'unknown',
        videoRecordingEnabled: created.artifactPlan?.videoRecordingEnabled ?? false,
        voiceProvider: created.assistant?.voice?.provider || 'unknown',
      }),
    ));
  session.call = call;
  const recording = call.artifactPlan?.videoRecordingEnabled === true;
  const withVideo = call.assistant?.voice?.provider === 'tavus';
  const token = call.transport?.callToken;
  session.recording.enabled = recording;
  session.receiveVideo = recording || withVideo;

  const audioSource = plan.callObjectOptions.audioSource ?? true;
  const videoSource = plan.callObjectOptions.videoSource ?? recording;
  await stage(
    session,
    'daily-call-object-creation',
    () => session.createTransport(plan.factory, { url: call.webCallUrl as string, audioSource, videoSource, callObjectOptions: plan.callObjectOptions, dailyConfig: plan.dailyConfig }),
    {
      audioSource: typeof audioSource === 'object' ? 'track' : audioSource,
      videoSource: typeof videoSource === 'object' ? 'track' : videoSource,
      isVideoRecordingEnabled: recording,
      isVideoEnabled: withVideo,
    },
  );

  const mobile = isMobileDevice(host.env);
  await stage(
    session,
    'mobile-permissions',
    async () => {
      if (!mobile) return 'skipped-not-mobile';
      // Mobile browsers need the permission prompt answered, then a moment, before joining.
      await host.env.requestMicrophone();
      await session.sleep(1000);
      return 'permissions-wait';
    },
    { isMobile: mobile },
    (action) => ({ action }),
  );

  session.recording.requestedAt = host.clock.now();
  await stage(session, 'daily-call-join', () => session.join({ url: call.webCallUrl as string, ...(token ? { token } : {}) }));

  await stage(
    session,
    'video-recording-setup',
    () => {
      if (!recording) return 'skipped-not-enabled';
      // A meeting token from the server starts the recording on join; older servers send none.
      if (token) return 'auto-started-via-meeting-token';
      session.recording.requestedAt = host.clock.now();
      session.transportOrThrow().startRecording(RECORDING);
      return 'started-by-client';
    },
    undefined,
    (action) => ({ action }),
  );

  if (recording) session.recording.watch();
  else
    await stage(
      session,
      'video-recording-started',
      () => undefined,
      undefined,
      () => ({ action: 'skipped-not-enabled' }),
    );

  await stage(session, 'audio-observer-setup', async () => {
    await session.transportOrThrow().startRemoteAudioLevelObserver(LEVEL_INTERVAL_MS);
    session.observeLevels();
  });

  await stage(
    session,
    'audio-processing-setup',
    async () => {
      if (!plan.noiseCancellation) return 'skipped-disabled';
      await session.transportOrThrow().setNoiseCancellation(true);
      return 'noise-cancellation';
    },
    undefined,
    (action) => ({ action }),
  );
  session.checkOpen();
  return call;
}
