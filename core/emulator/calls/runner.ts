// Runs every call the emulator creates and tracks them: starts, web-call joins, inbound rings,
// ends, resets, the shared clock speed and the ended calls kept; how each call gets to its
// conversation is in flows.ts.
import { HttpError, notFound } from '../errors.js';
import type { Rec } from '../store/store.js';
import { ClockSpeed, LiveClock, SimClock } from './clock.js';
import { answered, inbound, outbound } from './flows.js';
import { notify } from './notify.js';
import type { LifecycleType } from './notify.js';
import { castOf } from './resolve.js';
import { DEFAULT_SCENARIO } from './scenario.js';
import type { Scenario } from './scenario.js';
import { CallSession } from './session.js';
import type { CallDeps } from './session.js';
import { webConversation } from './web.js';
import type { BrowserCall, BrowserCustomer } from './browser.js';
import { VoiceError } from '../../errors.js';
import { CallSound } from './audio/sound.js';
import { callRecordingWav } from './recording.js';
import type { RecordingKind } from './recording.js';
import type { LiveLine } from './live.js';
import type { TimelineData } from './audio/timeline.js';
import type { NoiseOptions } from './audio/port.js';

/** How calls run. */
export interface RunnerOptions {
  /** Simulated clock speed (default 1: real time). */
  speed?: number;
  /** What the simulated customer says (default: the built-in conversation). */
  scenario?: Scenario;
  /** Ended calls kept, with their logs (default 1,000); older ones leave the store and the data file, oldest first. */
  keepEndedCalls?: number;
  /**
   * Sound (`voice dev`: on unless `--no-audio`): phone calls, and web calls whose page streams audio, speak and listen with voice-agent-audio
   * when it is installed, and say why not when it is not. Unset: the text timeline, without a note.
   */
  audio?: boolean;
}

/** How much faster than real time a voice-mode simulation's call runs (tests run calls at this speed too). */
export const SIMULATION_SPEED = 1000;

/** How many ended calls the emulator keeps unless told otherwise. */
export const DEFAULT_KEEP_ENDED_CALLS = 1000;

/** Starts and tracks every running call. */
export class CallRunner {
  /** The speed every call's clock runs at, shared so a change reaches the calls under way. */
  private readonly pace: ClockSpeed;
  private readonly scenario: Scenario;
  private readonly running = new Map<string, { session: CallSession; done: Promise<void> }>();
  /** Lifecycle messages on their way (chat, session, call deletion), so `idle()` waits for them too. */
  private readonly notices = new Set<Promise<unknown>>();
  private readonly keepEnded: number;
  /** The calls' sound: their audio loops, and the recordings made from their timelines. */
  readonly sound: CallSound;
  /** Ended calls, oldest first (built from the store on first use). */
  private endedIds: string[] | undefined;

  constructor(
    private readonly deps: Omit<CallDeps, 'clock'>,
    options: RunnerOptions = {},
  ) {
    this.pace = new ClockSpeed(options.speed ?? 1);
    this.scenario = options.scenario ?? DEFAULT_SCENARIO;
    this.keepEnded = options.keepEndedCalls ?? DEFAULT_KEEP_ENDED_CALLS;
    this.sound = new CallSound(options.audio);
    if (!(this.keepEnded >= 0)) throw new VoiceError(`keepEndedCalls must be 0 or more, got ${this.keepEnded}`);
  }

  /** The simulated clock's speed now. */
  get speed(): number {
    return this.pace.get();
  }

  /** A new simulated clock at the calls' speed (it follows every change of speed), for what runs beside calls. */
  clock(): SimClock {
    return new SimClock(this.pace);
  }

  /** Changes the speed of every call, running ones included (a RangeError unless positive and finite). */
  setSpeed(speed: number): void {
    this.pace.set(speed);
  }

  /** Notes a call that ended and lets the oldest ended calls (and their logs) go past the limit. */
  private ended(callId: string): void {
    const store = this.deps.store;
    if (!this.endedIds) {
      const at = (c: Rec): string => String(c.endedAt ?? c.createdAt);
      this.endedIds = store
        .all('call')
        .filter((c) => c.status === 'ended' && c.id !== callId)
        .sort((a, b) => at(a).localeCompare(at(b)))
        .map((c) => c.id);
    }
    if (store.get('call', callId)?.status === 'ended') this.endedIds.push(callId);
    if (this.endedIds.length <= this.keepEnded) return;
    // Calls deleted through the API are no longer there to count.
    this.endedIds = this.endedIds.filter((id) => store.get('call', id));
    if (this.endedIds.length <= this.keepEnded) return;
    const gone = new Set(this.endedIds.splice(0, this.endedIds.length - this.keepEnded));
    for (const id of gone) store.remove('call', id);
    store.removeWhere('log', (l) => gone.has(l.callId as string));
    for (const id of gone) this.sound.forget(store, id);
    this.deps.changed();
  }

  /** Starts a call's run: on its own clock (`live`: a clock that runs with real time, for a browser streaming audio), or as a simulation asks (`own`). */
  private launch(call: Rec, run: (s: CallSession) => Promise<void>, how: { live?: boolean; own?: { clock: SimClock; scenario: Scenario; sound: boolean } } = {}): CallSession {
    const { live = false, own } = how;
    // Each call's clock starts at its creation, so its times read like a real call placed now.
    const session = new CallSession({ ...this.deps, clock: own?.clock ?? (live ? new LiveClock(this.pace) : new SimClock(this.pace)) }, call);
    // Started after the current request has been answered, so its reply shows the call as created.
    const done = Promise.resolve()
      .then(() => (own ? this.sound.attach(session, own.scenario, own.sound) : this.sound.attach(session, this.scenario)))
      .then(() => run(session))
      .catch((err: unknown) => {
        session.log(`Emulator error: ${(err as Error).message}`, 'ERROR');
        session.finish('call.in-progress.error-vapifault-worker-died');
      })
      .then(() => session.drained())
      .finally(() => {
        this.running.delete(call.id);
        this.ended(call.id);
      });
    this.running.set(call.id, { session, done });
    return session;
  }

  /**
   * Runs a call that was just created (`queued`): a phone call rings its customer; a web call
   * (started by whoever joins it, e.g. the local web-call transport) goes straight to `in-progress`.
   */
  start(call: Rec): void {
    this.launch(call, (s) => (call.type === 'webCall' ? this.web(s) : outbound(s, this.scenario)));
  }

  /** Sends a lifecycle message about a stored chat, session or call, in the background (never throws). */
  notify(type: LifecycleType, subject: Rec): void {
    const sent = notify(this.deps, type, structuredClone(subject))
      .catch(() => undefined)
      .finally(() => this.notices.delete(sent));
    this.notices.add(sent);
  }

  /** A client joined a web call: it runs now. Returns the call, or undefined when there is no such queued web call. */
  join(callId: string): Rec | undefined {
    const call = this.deps.store.get('call', callId);
    if (!call || call.type !== 'webCall' || call.status !== 'queued' || this.running.has(callId)) return undefined;
    this.start(call);
    return call;
  }

  /** Runs a web call on the assistant, squad or workflow it names; `talk` is the browser's side when one joined. */
  private async web(s: CallSession, talk?: Parameters<typeof answered>[3]): Promise<void> {
    const cast = castOf(s.deps, s.call);
    if (cast && 'assistant' in cast) s.assistant = cast.assistant;
    if (!cast) return s.finish('call-start-error-neither-assistant-nor-server-set');
    return answered(s, cast, this.scenario, talk);
  }

  /** Runs a web call a browser has joined as its customer (the emulator's web-call socket calls this). */
  joinWeb(call: Rec, browser: BrowserCustomer): BrowserCall {
    // The run starts after this returns, with the conversation set up below.
    // A browser streaming audio hears the call as it happens: its clock reads the time as it passes.
    const session = this.launch(call, (s) => this.web(s, web.talk), { live: browser.audio !== undefined });
    const web = webConversation(session, browser, this.scenario);
    return web.call;
  }

  /**
   * Runs a voice-mode simulation's call (`vapi.websocketCall`) to its end: `drive` plays both
   * sides. It has sound unless sound was turned off (`--no-audio`) or the package is missing, and
   * its own clock at SIMULATION_SPEED: nobody listens live, and its timeline is the same at any speed.
   */
  async simulate<T>(call: Rec, drive: (s: CallSession) => Promise<T>, noise?: NoiseOptions): Promise<{ session: CallSession; outcome: T | undefined }> {
    let outcome: T | undefined;
    const session = this.launch(call, async (s) => void (outcome = await drive(s)), {
      own: { clock: new SimClock(SIMULATION_SPEED), scenario: { turns: [], ...(noise ? { noise } : {}) }, sound: this.sound.on ?? true },
    });
    this.deps.changed();
    await this.running.get(call.id)?.done;
    return { session, outcome };
  }

  /** Rings a phone number as a caller from `from` would; returns the new inbound call. */
  ring(phoneNumberId: string, from = '+15555550123'): Rec {
    const pn = this.deps.store.get('phone-number', phoneNumberId);
    if (!pn) throw notFound('Phone Number');
    if (typeof from !== 'string' || !from) throw new HttpError(400, "from must be the caller's number, e.g. +15555550123");
    const links = Object.fromEntries(['assistantId', 'squadId', 'workflowId'].filter((k) => typeof pn[k] === 'string').map((k) => [k, pn[k]]));
    const call = this.deps.store.insert('call', {
      type: 'inboundPhoneCall',
      status: 'queued',
      phoneCallProvider: typeof pn.provider === 'string' && ['twilio', 'vonage', 'telnyx'].includes(pn.provider) ? pn.provider : 'vapi',
      phoneCallTransport: 'pstn',
      phoneNumberId,
      customer: { number: from },
      cost: 0,
      ...links,
    });
    this.launch(call, (s) => inbound(s, pn, this.scenario));
    this.deps.changed();
    return call;
  }

  /**
   * Ends the phone calls a previous run left unfinished (a data file written while they ran) with
   * `worker-shutdown`, as the platform does when the worker running a call goes away. Returns how many.
   */
  settleInterrupted(): number {
    let n = 0;
    for (const call of this.deps.store.all('call')) {
      if (call.type === 'webCall' || this.running.has(call.id)) continue;
      if (!['queued', 'ringing', 'in-progress', 'forwarding'].includes(String(call.status))) continue;
      Object.assign(call, { status: 'ended', endedReason: 'worker-shutdown', endedAt: new Date().toISOString() });
      this.deps.store.touch(call);
      n++;
    }
    return n;
  }

  /**
   * Ends a running call now, as its customer hanging up (`customer-ended-call`) or as an operator
   * would (`manually-canceled`). Returns false when the call is not running.
   */
  end(callId: string, by: 'customer' | 'operator'): boolean {
    const running = this.running.get(callId);
    if (!running || running.session.ended) return false;
    running.session.log(by === 'customer' ? 'The customer hung up (from the inspector)' : 'Call ended from the inspector');
    running.session.finish(by === 'customer' ? 'customer-ended-call' : 'manually-canceled');
    return true;
  }

  /**
   * The customer says `text` on a running call (`voice call say`, the inspector): it becomes their
   * next turn. Returns false when the call is not running or cannot take a line now.
   */
  say(callId: string, line: LiveLine): boolean {
    const running = this.running.get(callId);
    if (!running || running.session.ended || !running.session.hear) return false;
    running.session.log(line.dtmf ? `The customer presses (live): ${line.dtmf}` : `The customer says (said live): ${line.text ?? ''}`);
    return running.session.hear(line);
  }

  /** A call's audio timeline: live while it runs, as kept once it ended; undefined for a call without sound. */
  timeline(callId: string): TimelineData | undefined {
    return this.running.get(callId)?.session.audio?.timeline.data ?? this.sound.timelineOf(this.deps.store, callId);
  }

  /** The WAV of one kind of recording of an ended call: its audio when it had sound, else the stand-in tones of the text timeline. */
  async recording(kind: RecordingKind, call: Rec): Promise<Buffer> {
    return (await this.sound.recording(this.deps.store, call, kind)) ?? callRecordingWav(kind, call);
  }

  /** Resolves when every running call has ended and its deliveries are made. */
  async idle(): Promise<void> {
    while (this.running.size || this.notices.size) await Promise.all([...[...this.running.values()].map((r) => r.done), ...this.notices]);
  }

  /** Whether this call is running now. */
  isRunning(callId: string): boolean {
    return this.running.has(callId);
  }

  /** How many calls are running. */
  get active(): number {
    return this.running.size;
  }

  /** Cancels every running call silently (a reset): nothing more is sent or recorded for them. */
  cancelAll(): number {
    // The store is about to be replaced: the ended calls are counted again from it.
    this.endedIds = undefined;
    const n = this.running.size;
    for (const { session } of this.running.values()) session.cancel();
    this.running.clear();
    return n;
  }

  /** Stops every running call at once (the emulator is closing). */
  close(): void {
    for (const { session } of this.running.values()) session.finish('manually-canceled');
  }
}
