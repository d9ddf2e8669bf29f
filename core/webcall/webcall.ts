// WebCall: the public client. A state machine over one Session at a time (start, reconnect, stop,
// end, dispose), with the platform SDK's method names, arguments and events; the in-call controls
// are in controls.ts.
import { DEFAULT_BASE_URL, webCallPayload } from './create-call.js';
import { dailyTransportFactory, safeDailyConfig, safeCallObjectOptions } from './daily-transport.js';
import type { DailyAdvancedConfig, DailyFactoryOptions } from './daily-types.js';
import { CallControls } from './controls.js';
import { isLocalWebCallUrl } from './local-protocol.js';
import { browserEnvironment, isMobileDevice, systemClock } from './env.js';
import { MISSING_TARGET, redact, serializeError, webCallError } from './errors.js';
import { Session, STOPPED } from './session.js';
import type { SessionHost } from './session.js';
import { runStart, StageFailure } from './start.js';
import type { StartPlan } from './start.js';
import type {
  InlineAssistant,
  InlineSquad,
  InlineWorkflow,
  ReconnectWebCall,
  StartAssistantOverrides,
  StartCallOptions,
  StartWorkflowOverrides,
  TransportFactory,
  WebCallOptions,
  WebCallResponse,
  WebCallState,
} from './types.js';
import { VoiceError } from '../errors.js';

/** The media layer for a call: the emulator's local transport for its calls, else Daily (each loaded only when used). */
function mediaFactory(loadDaily: WebCallOptions['loadDaily']): TransportFactory {
  const daily = dailyTransportFactory(loadDaily);
  return (request) => (isLocalWebCallUrl(request.url) ? import('./local-transport.js').then((m) => m.createLocalTransport(request)) : daily(request));
}

/** A live voice (and optionally video) call with an assistant, squad or workflow, in the browser. */
export class WebCall extends CallControls {
  private phase: WebCallState = 'idle';
  private ending: Promise<void> | null = null;
  private disposed = false;
  private stops = 0;
  private readonly options: WebCallOptions;
  private readonly dailyConfig: DailyAdvancedConfig;
  private readonly callObjectOptions: DailyFactoryOptions;
  private readonly host: SessionHost;

  /** Same arguments as the platform SDK, plus options (fetch, daily loader, reporter, clock...). */
  constructor(
    private readonly publicKey: string,
    private readonly baseUrl: string = DEFAULT_BASE_URL,
    callConfig?: DailyAdvancedConfig,
    callObjectOptions?: DailyFactoryOptions,
    options: WebCallOptions = {},
  ) {
    super();
    this.options = options;
    this.dailyConfig = safeDailyConfig(callConfig);
    this.callObjectOptions = safeCallObjectOptions(callObjectOptions);
    this.host = {
      events: this,
      clock: options.clock ?? systemClock,
      env: options.environment ?? browserEnvironment,
      volume: () => this.desiredVolume,
      report: (type, stage, error, context) => this.report(type, stage, error, context),
      ended: (session, reason) => {
        if (session !== this.current) return;
        if (this.phase === 'starting') session.interrupt(reason);
        else if (this.phase === 'active') void this.teardown(session);
      },
    };
  }

  /** Where the instance is: idle, starting, active or ending. */
  get state(): WebCallState {
    return this.phase;
  }

  /**
   * Creates a web call and joins it. Resolves with the created call, or null when the start
   * fails, is refused (already started) or is stopped. Throws when no target is given.
   */
  async start(
    assistant?: InlineAssistant | string,
    assistantOverrides?: StartAssistantOverrides,
    squad?: InlineSquad | string,
    workflow?: InlineWorkflow | string,
    workflowOverrides?: StartWorkflowOverrides,
    options?: StartCallOptions,
  ): Promise<WebCallResponse | null> {
    this.checkNotDisposed();
    if (!assistant && !squad && !workflow) {
      const error = new VoiceError(MISSING_TARGET);
      this.emit('error', webCallError({ type: 'validation-error', stage: 'input-validation', error: serializeError(error), timestamp: this.timestamp() }));
      throw error;
    }
    const payload = webCallPayload(assistant, assistantOverrides, squad, workflow, workflowOverrides, options?.roomDeleteOnUserLeaveEnabled);
    return this.run({ payload, flags: { hasAssistant: !!assistant, hasSquad: !!squad, hasWorkflow: !!workflow } });
  }

  /** Rejoins an existing web call (skips creation); throws when it cannot. */
  async reconnect(webCall: ReconnectWebCall): Promise<void> {
    this.checkNotDisposed();
    if (!webCall?.webCallUrl) throw new VoiceError('webCallUrl is required for reconnection.');
    if (this.phase === 'starting' || this.phase === 'active') throw new VoiceError('Cannot reconnect while a call is already in progress. Call stop() first.');
    const existing = webCall as WebCallResponse & { webCallUrl: string };
    const result = await this.run({ existing, flags: { hasAssistant: false, hasSquad: false, hasWorkflow: false } });
    if (result === null) throw new VoiceError('Reconnecting to the call failed.');
  }

  /** Leaves the call (or aborts a start in progress) and releases its resources. */
  async stop(): Promise<void> {
    this.stops++;
    if (this.current && (this.phase === 'starting' || this.phase === 'active')) return this.teardown(this.current);
    if (this.ending) return this.ending;
  }

  /** Asks the assistant side to end the call, then leaves; resolves when everything is released. */
  async end(): Promise<void> {
    this.send({ type: 'end-call' });
    await this.stop();
  }

  /** Stops any call and releases every listener, timer, element, track and audio context. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.stop();
    this.removeAllListeners();
  }

  private async run(source: Pick<StartPlan, 'payload' | 'existing' | 'flags'>): Promise<WebCallResponse | null> {
    // A stop in progress finishes first, so mount → unmount → mount ends with one call; a stop
    // that comes while this start waits for it cancels this start too.
    const ticket = this.stops;
    while (this.ending) await this.ending;
    this.checkNotDisposed();
    if (this.stops !== ticket) return null;
    if (this.phase !== 'idle') {
      this.emit('call-start-progress', { stage: 'validation', status: 'failed', timestamp: this.timestamp(), metadata: { reason: 'already-started' } });
      return null;
    }
    const began = this.host.clock.now();
    const session = new Session(this.host);
    this.current = session;
    this.setPhase('starting');
    const plan: StartPlan = {
      ...source,
      publicKey: this.publicKey,
      baseUrl: this.baseUrl,
      fetch: this.options.fetch,
      factory: this.options.transport ?? mediaFactory(this.options.loadDaily),
      dailyConfig: this.dailyConfig,
      callObjectOptions: this.callObjectOptions,
      noiseCancellation: this.options.noiseCancellation ?? true,
    };
    try {
      const call = await runStart(session, plan);
      session.started = true;
      this.setPhase('active');
      this.emit('call-start-success', { totalDuration: this.host.clock.now() - began, callId: call.id || 'unknown', timestamp: this.timestamp() });
      if (this.listenerCount('local-volume-level') > 0) {
        session.transport?.startLocalAudioLevelObserver(100).catch((error: unknown) => this.emit('local-audio-level-observer-error', serializeError(error)));
      }
      return call;
    } catch (error) {
      if (error === STOPPED || (session.closed && !(error instanceof StageFailure))) {
        await this.ending;
        return null;
      }
      const stage = error instanceof StageFailure ? error.stage : session.stage;
      const cause = error instanceof StageFailure ? error.cause : error;
      const serialized = serializeError(cause);
      const totalDuration = this.host.clock.now() - began;
      const context = { ...source.flags, isMobile: isMobileDevice(this.host.env), callId: session.call?.id || 'unknown' };
      // Spec 4 and the platform SDK: call-start-failed, then error start-method-error, then cleanup.
      this.emit('call-start-failed', { stage, totalDuration, error: serialized.message, errorStack: serialized.stack || 'No stack trace available', timestamp: this.timestamp(), context });
      this.emit('error', webCallError({ type: 'start-method-error', stage, error: serialized, totalDuration, timestamp: this.timestamp(), context }));
      this.report('start-method-error', stage, cause, context);
      await this.teardown(session);
      return null;
    }
  }

  private teardown(session: Session): Promise<void> {
    if (this.current !== session) return session.close();
    if (this.ending) return this.ending;
    // Assigned before the state event, so a start() from a 'state' listener waits for it.
    const ending = session.close().then(() => {
      this.current = null;
      this.ending = null;
      this.setPhase('idle');
    });
    this.ending = ending;
    this.setPhase('ending');
    return ending;
  }

  private report(type: string, stage: string | undefined, error: unknown, context?: Record<string, unknown>): void {
    const reporter = this.options.reportError;
    if (!reporter) return;
    const serialized = serializeError(error);
    try {
      reporter({
        type,
        ...(stage ? { stage } : {}),
        message: serialized.message,
        error: redact(serialized) as Record<string, unknown>,
        ...(context ? { context: redact(context) as Record<string, unknown> } : {}),
        timestamp: this.timestamp(),
      });
    } catch (failure) {
      console.error('[webcall] the error reporter threw', failure);
    }
  }

  private setPhase(next: WebCallState): void {
    const previous = this.phase;
    if (previous === next) return;
    this.phase = next;
    this.emit('state', next, previous);
  }

  private checkNotDisposed(): void {
    if (this.disposed) throw new VoiceError('This WebCall was disposed; create a new one.');
  }

  private timestamp(): string {
    return new Date(this.host.clock.now()).toISOString();
  }
}
