// One running call's state and its primitives: send a server message (filtered, to the right
// server, in order), change status, speak a line, and end with the artifact the platform keeps.
import type { CallStatus, ConversationMessage, DataOf, Json, MessageContext, RecordingUrls, ServerMessage, ServerMessageType } from '../../messages/index.js';
import { artifactOf, buildServerMessage, clientMessageOf, frozenCopy, isDeepFrozen, isSubscribed, summarise } from '../../messages/index.js';
import { logCall } from './log.js';
import type { EmulatorRecord } from '../store/record.js';
import type { Rec, Store } from '../store/store.js';
import type { SimClock } from './clock.js';
import { afterCall } from './after-call.js';
import { costOf } from './cost.js';
import { chooseServer, deliver, turn, withCredential } from './deliver.js';
import type { Delivered } from './deliver.js';
import { orgOf } from './resolve.js';
import type { ModelGateway } from '../../model/index.js';
import { NO_MODEL_HINT } from '../../model/index.js';
import { Interruptions, performanceMetrics, repliesOf, turnLatency } from './latency.js';
import { hasTemplates, templatesLoaded, templatesReady, withVariables } from './variables.js';
import type { TurnLatency } from './latency.js';
import type { CallAudio, LineSource, LiveLine } from './audio/engine.js';
import type { CallHooks, HookTalk } from './audio/hooks.js';
import { customerKeys } from './audio/keypad.js';
import { audioOffNote } from './audio/port.js';
import type { AudioOffReason } from './audio/port.js';
import type { Fragments } from './audio/utterance.js';
import { lineText } from './audio/utterance.js';
import { speakText } from './speech.js';

/** What every call shares: the store, the record, the clock, and how to persist a change. */
export interface CallDeps {
  store: Store;
  record: EmulatorRecord;
  clock: SimClock;
  /** Base URL of the emulator (for `recordingUrl`). */
  baseUrl: () => string;
  /** Asks for the data file to be written. */
  changed: () => void;
  /** The door to the assistant's model (absent or not configured for an assistant: scripted conversations). */
  model?: ModelGateway;
  /** Posts one message (default: `deliver`); the load generator brings its own to time, bound and fault each delivery. */
  post?: typeof deliver;
  /** Resolves when a delivery may go (default: `turn`, a few per event-loop turn so REST requests keep being answered). */
  pace?: () => Promise<void>;
  /** The local folder standing in for storage buckets the emulator cannot reach (`voice dev --storage-dir`). */
  storageDir?: string;
}

export { speakingSeconds } from './speech.js';

/** A browser in the call as its customer (web calls): it gets the client messages and plays the assistant. */
export interface SessionBrowser {
  message(message: Json): void;
  /** Plays an assistant line; resolves once played. */
  speak(text: string, seconds: number): Promise<void>;
  /** The browser plays streamed audio: the call gets its audio loop (when `voice dev` has sound). */
  streams?: boolean;
}

/** Why a call's waits were cut short: made once (an abort without a reason makes an exception, with its stack, each time). */
const ENDED = new DOMException('The call ended', 'AbortError');

/** A running call. */
export class CallSession {
  /** The browser taking part, for a web call a browser has joined. */
  browser: SessionBrowser | undefined;
  /**
   * The conversation so far. Copied on each new line, never changed in place: every message sent
   * since carries the array it saw, without a copy of its own (a call sends four times as many
   * messages as it has lines).
   */
  get messages(): readonly ConversationMessage[] {
    return this.said;
  }
  private said: readonly ConversationMessage[] = [];
  private recording: string | undefined;
  private current: Json | undefined;
  private unfilled = false;
  phoneNumber: Json | undefined;
  ended = false;
  /** `maxDurationSeconds` once answered: every wait stops there and ends the call. */
  maxSeconds: number | undefined;
  /** True when the conversation is scripted because no model is configured (its summary says so). */
  scripted = false;
  /** Each model turn's latencies, for the artifact's `performanceMetrics`. */
  readonly latencies: TurnLatency[] = [];
  /** Who cut whom off, for the artifact's `performanceMetrics`. */
  readonly interruptions = new Interruptions();
  /** The call's audio loop when it has sound (undefined: the text timeline). */
  audio: CallAudio | undefined;
  /** Why the call has no sound, when `voice dev` was asked for sound and it has none. */
  audioOff: AudioOffReason | undefined;
  /** The assistant's hooks on the call's audio (with sound only). */
  hooks: CallHooks | undefined;
  /** What the assistant's hooks need from the conversation (set by the conversation that runs the call). */
  talk: HookTalk | undefined;
  /** The last line the assistant spoke: its text, and what of it was heard (less when cut off, nothing when never started). */
  lastLine: { text: string; heard: string } | undefined;
  /** Results of the tools a simulation's scenario mocks (`toolMocks`), by function name: given instead of calling their servers. */
  toolMocks: ReadonlyMap<string, string> | undefined;
  /** Takes a customer line or keys from outside the call (`voice call say`, the inspector); false when the call cannot take one now. */
  hear: ((line: LiveLine) => boolean) | undefined;
  /** Aborted when the call ends (hang-up, max duration), cutting every wait short. */
  readonly stop = new AbortController();
  /** Aborted by `cancel()` (a reset): nothing more is sent, and deliveries in flight are dropped unrecorded. */
  readonly cancelled = new AbortController();
  private chain: Promise<unknown> = Promise.resolve();
  /** What follows the call's end (outputs, report, storage), once it has ended. */
  private reported: Promise<void> | undefined;
  private started: number | undefined;
  private turn = 0;

  constructor(
    readonly deps: CallDeps,
    readonly call: Rec,
  ) {
    const pn = typeof call.phoneNumberId === 'string' ? deps.store.get('phone-number', call.phoneNumberId) : undefined;
    this.phoneNumber = pn ?? (call.phoneNumber as Json | undefined);
  }

  /** The assistant running the call, its texts filled from its template variables (`{{name}}`, `{{customer.number}}`). */
  get assistant(): Json | undefined {
    return this.current;
  }

  set assistant(assistant: Json | undefined) {
    // The template engine loads on the first call that needs it; until then the call holds the
    // assistant as written, and `filled()` fills it before anything is said.
    this.unfilled = Boolean(assistant && !templatesLoaded() && hasTemplates(assistant));
    if (this.unfilled) {
      this.current = assistant;
      void templatesReady();
      return;
    }
    const problems: string[] = [];
    this.current = assistant && withVariables(assistant, { customer: this.customer, phoneNumber: this.phoneNumber }, problems);
    for (const p of problems) this.log(`A template in the assistant could not be filled (${p}); the text is used as written`, 'WARN');
  }

  /** Resolves once the assistant's template variables are filled (at once unless the engine was still loading). */
  async filled(): Promise<void> {
    if (!this.unfilled) return;
    await templatesReady();
    if (this.unfilled) this.assistant = this.current;
  }

  /** Simulated epoch milliseconds the call was answered at (the clock's time until it is). */
  get startedMs(): number {
    return this.started ?? this.deps.clock.now();
  }

  /** Seconds since the call was answered, on its clock. */
  secondsNow(): number {
    return (this.deps.clock.now() - this.startedMs) / 1000;
  }

  /** The next line's turn number. */
  nextTurn(): number {
    return ++this.turn;
  }

  /** The customer of the call. */
  get customer(): Json | undefined {
    return this.call.customer as Json | undefined;
  }

  private either: { wake: AbortSignal; signal: AbortSignal } | undefined;

  /** A signal for the call's end or `wake`, whichever comes first; made once per `wake` (each one made stays tied to the call's end until it ends). */
  private stopOr(wake: AbortSignal): AbortSignal {
    if (this.either?.wake !== wake) this.either = { wake, signal: AbortSignal.any([this.stop.signal, wake]) };
    return this.either.signal;
  }

  /** Sleeps simulated seconds (less when `wake` aborts first); returns false when the call ended meanwhile. */
  async wait(seconds: number, wake?: AbortSignal): Promise<boolean> {
    const signal = wake ? this.stopOr(wake) : this.stop.signal;
    if (this.maxSeconds !== undefined && this.started !== undefined) {
      const left = this.maxSeconds - (this.deps.clock.now() - this.started) / 1000;
      if (seconds >= left) {
        await this.deps.clock.sleep(Math.max(0, left) * 1000, signal);
        if (wake?.aborted && !this.ended) return true;
        this.finish('exceeded-max-duration', this.maxSeconds);
        return false;
      }
    }
    await this.deps.clock.sleep(seconds * 1000, signal);
    return !this.ended;
  }

  /**
   * Sends a message to the server the precedence picks, after the call's earlier messages,
   * when the assistant subscribes to it. Resolves with the delivery (undefined when not sent).
   */
  send<T extends ServerMessageType>(type: T, data?: DataOf<T>, extra: { tool?: Json; force?: boolean } = {}): Promise<Delivered | undefined> {
    // Decided before building: most calls subscribe to few types, and building is the costly part.
    const probe = { type, transcriptType: (data as { transcriptType?: string } | undefined)?.transcriptType };
    const toServer = extra.force === true || isSubscribed(probe, this.assistant?.serverMessages as string[] | undefined);
    // A browser in a web call gets the assistant's clientMessages, whatever the server subscribes to.
    const toBrowser = this.browser !== undefined && clientMessageOf(probe, this.assistant?.clientMessages as string[] | undefined) !== undefined;
    if (!toServer && !toBrowser) return Promise.resolve(undefined);
    const { store } = this.deps;
    const target = toServer
      ? withCredential(chooseServer(type, { tool: extra.tool, assistant: this.assistant, phoneNumber: this.phoneNumber, org: orgOf(store) }), (id) => store.get('credential', id))
      : undefined;
    if (!target && !toBrowser) return Promise.resolve(undefined);
    // Built now, from the state as it is now (the builder copies the call); sent when its turn comes.
    const message = this.message(type, data);
    // The browser gets its message as it happens (its playback is live); servers get theirs in turn.
    if (toBrowser) this.browser?.message(message);
    if (!target) return Promise.resolve(undefined);
    const signal = this.cancelled.signal;
    const sent = this.chain.then(() => (this.deps.pace ?? turn)()).then(() => (signal.aborted ? undefined : (this.deps.post ?? deliver)(this.deps.record, target, this.call.id, message, signal)));
    this.chain = sent;
    return sent;
  }

  /** A message of this call as it stands now (its parties, conversation and simulated time). */
  message<T extends ServerMessageType>(type: T, data?: DataOf<T>): ServerMessage {
    const context: MessageContext & { data?: DataOf<T> } = {
      call: this.call,
      timestamp: Math.round(this.deps.clock.now()),
      messages: this.said,
      recordingUrl: this.recordingUrl(),
      recordingUrls: this.recordingUrls(),
    };
    if (this.assistant) context.assistant = this.assistant;
    if (this.customer) context.customer = this.customer;
    if (this.phoneNumber) context.phoneNumber = this.phoneNumber;
    if (data) context.data = data;
    return buildServerMessage(type, context);
  }

  /** Waits until every message sent so far has been delivered (or failed). */
  drained(): Promise<void> {
    return (this.reported ?? Promise.resolve()).then(() => this.chain).then(() => undefined);
  }

  /** Moves the call to a status, records it and sends `status-update` (unless `quiet`: no assistant yet). */
  setStatus(status: CallStatus, endedReason?: string, quiet = false): void {
    if (this.cancelled.signal.aborted) return;
    // The first `queued` reports the status the call was created with: nothing changes.
    const changes = this.call.status !== status || endedReason !== undefined;
    this.call.status = status;
    if (status === 'in-progress' && !this.call.startedAt) {
      this.started = this.deps.clock.now();
      this.call.startedAt = new Date(this.started).toISOString();
    }
    if (changes) this.deps.store.touch(this.call);
    this.deps.record.add({ kind: 'call.status', callId: this.call.id, status, ...(endedReason ? { endedReason } : {}) });
    this.log(`Call status: ${status}${endedReason ? ` (${endedReason})` : ''}`);
    // A forwarding call's status-update names where it goes (the platform sends it only then).
    const destination = status === 'forwarding' ? (this.call.destination as Json | undefined) : undefined;
    if (!quiet) void this.send('status-update', { status, ...(endedReason ? { endedReason } : {}), ...(destination ? { destination } : {}) });
    if (changes) this.deps.changed();
  }

  /** A log line for `GET /log` at the simulated time. */
  log(text: string, level = 'INFO'): void {
    if (this.cancelled.signal.aborted) return;
    logCall(this.deps.store, this.call, text, this.deps.clock.iso(), level);
    this.deps.record.add({ kind: 'call.log', callId: this.call.id, level, text });
  }

  private seconds(at: number): number {
    return Math.round((at - (this.started ?? at)) / 10) / 100;
  }

  /** Adds a conversation message at the current simulated time. */
  push(message: ConversationMessage): void {
    const said = [...this.said, message];
    // Lines frozen all the way down (a load run's) make a conversation frozen all the way down,
    // whose JSON and formatted twin are then made once (messages/frozen.ts).
    this.said = isDeepFrozen(message) && (this.said.length === 0 || isDeepFrozen(this.said)) ? frozenCopy(said) : Object.freeze(said);
    void this.send('conversation-update');
  }

  /** A simulated timestamp and seconds from start, for a message beginning now. */
  stamp(): { time: number; secondsFromStart: number } {
    const time = Math.round(this.deps.clock.now());
    return { time, secondsFromStart: this.seconds(time) };
  }

  /** One spoken line: speech and transcript messages while it is said, then the conversation update. False once the call ended. */
  async speak(role: 'assistant' | 'user', text: string, options: { streamed?: boolean; source?: LineSource } = {}): Promise<boolean> {
    if (this.ended) return false;
    if (!this.audio) return speakText(this, role, text, options.streamed === true);
    return role === 'assistant' ? this.audio.assistantSays(text, options) : this.audio.customerSays(text, () => Promise.resolve(true));
  }

  /** The customer says a line; `reply` answers each turn of it (with sound, endpointing may make one line several turns). False once the call ended. */
  async customerSays(line: string | Fragments, reply: (heard: string, last: boolean) => Promise<boolean>): Promise<boolean> {
    if (this.ended) return false;
    if (this.audio) return this.audio.customerSays(line, reply);
    const text = lineText(line);
    return (await speakText(this, 'user', text, false)) && reply(text, true);
  }

  /** Keys pressed: the customer's (answered by `reply` as `keypadInputPlan` says), or the assistant's `dtmf` tool. False once the call ended. */
  async pressKeys(side: 'customer' | 'assistant', digits: string, reply?: (heard: string) => Promise<boolean>): Promise<boolean> {
    if (this.ended) return false;
    if (side === 'customer') return customerKeys(this, digits, reply ?? (() => Promise.resolve(true)));
    this.audio?.tones('assistant', digits);
    this.log(`The assistant pressed ${digits} (dtmf)`);
    return this.wait(digits.length * 0.2);
  }

  /** The model answered in `ms` (time to first token): with sound it joins the reply's latencies, else a turn with stand-in speech latencies. */
  modelAnswered(ms: number): void {
    if (this.audio) this.audio.modelAnswered(ms);
    else this.latencies.push(turnLatency(ms));
  }

  /** The URL the emulator serves this call's recording from. */
  recordingUrl(): string {
    return (this.recording ??= `${this.deps.baseUrl()}/__voice/recording/${this.call.id}.wav`);
  }

  /** The URLs the emulator serves this call's stereo recording and each side's from. */
  recordingUrls(): RecordingUrls {
    const at = (kind: string): string => this.recordingUrl().replace(/\.wav$/, `.${kind}.wav`);
    return { stereo: at('stereo'), customer: at('customer'), assistant: at('assistant') };
  }

  /** The customer spoke over the assistant: counted, and `user-interrupted` sent (the one place an interruption is made). */
  userInterrupts(turnId?: string): void {
    if (this.ended) return;
    this.interruptions.count('user');
    void this.send('user-interrupted', turnId ? { turnId } : {});
  }

  /** Stops the call silently (the emulator is reset): no status change, no message, no delivery after this. */
  cancel(): void {
    this.cancelled.abort(ENDED);
    this.ended = true;
    this.stop.abort(ENDED);
  }

  /** Ends the call once: status, timing, cost, artifact, analysis, then `end-of-call-report`. */
  finish(endedReason: string, afterSeconds?: number): void {
    if (this.ended || this.cancelled.signal.aborted) return;
    this.ended = true;
    this.stop.abort(ENDED);
    // A limit ends the call exactly at the limit, whatever the timer's coarseness at high speeds.
    const now = afterSeconds !== undefined && this.started !== undefined ? this.started + afterSeconds * 1000 : this.deps.clock.now();
    const c = this.call;
    c.endedAt = new Date(now).toISOString();
    c.endedReason = endedReason;
    const seconds = this.started === undefined ? 0 : (now - this.started) / 1000;
    const transport = c.type === 'webCall' ? 'daily' : 'twilio';
    Object.assign(c, costOf(seconds, this.messages, this.assistant, transport));
    c.messages = this.said;
    const answered = this.started !== undefined;
    c.artifact = artifactOf(this.messages, answered ? this.recordingUrl() : undefined, this.recordingUrls());
    (c.artifact as Json).performanceMetrics = performanceMetrics(
      this.latencies,
      this.interruptions,
      repliesOf(this.messages),
      this.audio ? { scripted: this.scripted, transcribed: this.audio.transcriber?.measured === true } : undefined,
    );
    const notes = [this.scripted ? NO_MODEL_HINT : '', this.audioOff ? audioOffNote(this.audioOff) : ''].filter(Boolean);
    c.analysis = { summary: [summarise(this.messages), ...notes].join(' ') };
    if (this.audio) this.audio.close(seconds);
    this.setStatus('ended', endedReason);
    this.log(`Call ended: ${endedReason}`);
    this.reported = afterCall(this, endedReason);
  }
}
