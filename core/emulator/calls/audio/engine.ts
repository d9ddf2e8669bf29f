// A call's audio loop on its simulated clock: its state, the customer's lines armed to be said
// over the assistant, and the timeline they are placed on. Each line is synthesized before it is
// said (the clock stands still meanwhile, so a timeline is the same on any machine; an assistant
// line from its first piece on, see assistant.ts) and lasts as long as its audio. The assistant's side is in assistant.ts, the customer's in customer.ts.
import type { Json } from '../../../messages/index.js';
import type { CallSession } from '../session.js';
import { assistantSays } from './assistant.js';
import { customerSays } from './customer.js';
import { hasCustomVoice } from './custom-voice.js';
import { CallTranscriber, hasCustomTranscriber } from './custom-transcriber.js';
import { startPlanOf } from './plans.js';
import type { NoiseOptions } from './port.js';
import type { Overlap, Span } from './rules.js';
import type { SpeechEvent, TimelineWord } from './timeline.js';
import { shifted, Timeline } from './timeline.js';
import type { Fragments, Utterance } from './utterance.js';
import { placedSpans, prepare } from './utterance.js';
import type { Voices } from './voices.js';

/** What made the assistant speak a line. */
export type LineSource = NonNullable<SpeechEvent['source']>;

/** A customer line placed on the timeline: said from `at`, what the rules made of it when it overlapped the assistant. */
export interface Placed {
  u: Utterance;
  at: number;
  /** A backchannel said over the assistant: no turn, no reply. */
  acknowledgement?: boolean;
}

/** When a customer line armed to speak over the assistant starts: seconds into its next line, or after that many of its words. */
export type Over = { afterSeconds: number } | { afterWords: number };

/** A line said on the live call (`voice call say`): text (said over the assistant when `started`), or keys. */
export interface LiveLine {
  text?: string;
  dtmf?: string;
  /** Said over the assistant: this many seconds into its line (0: now, when it is speaking). */
  afterSeconds?: number;
  /** Said over the assistant after this many of its words. */
  afterWords?: number;
  /** Already placed on the timeline (said over the assistant): its turn follows with no pause. */
  started?: boolean;
}

/** One assistant line on its way out: its audio as it comes (all at once when synthesized here, in pieces from a streaming voice), then its end or its cut. */
export interface AssistantLineOut {
  push(samples: Int16Array): void;
  /** The line was said to its end. */
  end(): void;
  /** The line stopped here (an interruption, the call's end): what was not played yet is dropped. */
  cut(): void;
}

/** Where the assistant's audio goes as it is said, besides the timeline (a web call's browser). */
export interface AssistantOut {
  line(text: string, sampleRate: number): AssistantLineOut;
}

/** A customer line written when it is due, from the assistant's words heard by then (a voice-mode simulation's tester); undefined: it says nothing. */
export type LineWriter = (heard: string) => Promise<string | Fragments | undefined>;

/** The store collection a call's timeline is kept in, by call id, once the call has ended. */
export const TIMELINES = 'call-audio';

/** The customer's turn the next reply answers: where their speech stopped and what the endpointing waited. */
interface Answering {
  speechEnd: number;
  endpointSeconds: number;
  /** The developer's transcriber's latency for the turn (0: none runs). */
  transcriberMs: number;
}

/**
 * The audio loop of one call. Its state is shared by the two sides' halves of the loop: what the
 * assistant says (assistant.ts) and what the customer says (customer.ts).
 */
export class CallAudio {
  readonly timeline = new Timeline();
  /** Earliest time (seconds from the start) the assistant may start its next line. */
  floor = 0;
  /** The customer's line under way, placed on the timeline. */
  placed: Placed | undefined;
  /** The rest of the customer's line, when endpointing made a turn of its start: where they start again. */
  resume: { at: number; overlap: Overlap } | undefined;
  /** A customer line to say over the assistant: a scenario turn (`ready` once the customer's line before it is over) or a line said live. */
  armed: { over: Over; ready: boolean; live: boolean; prepared: Promise<Utterance>; write?: LineWriter } | undefined;
  /** The customer's turn the next reply answers. */
  answering: Answering | undefined;
  /** The model's time to first token for the next reply. */
  modelMs: number | undefined;
  /** The assistant's line under way: its words, whether it may be cut, and where it will be. */
  speaking: { start: number; end: number; words: TimelineWord[]; interruptible: boolean; cutAt?: number; cutRule?: string } | undefined;
  /** Wakes the wait of the line under way (a line said live over it). */
  wake = new AbortController();
  /** The assistant's last words heard, for the endpointing rules that look at them. */
  lastAssistant = '';
  /** Lines said on the live call (`voice call say`), handed back when they cannot be said over the assistant now. */
  lines: { push(line: LiveLine): void } | undefined;
  /** Where the assistant's audio is played as it is said (a browser in a web call); unset: the timeline only. */
  out: AssistantOut | undefined;
  /** The developer's transcriber, when the assistant has one (`transcriber.provider: custom-transcriber`). */
  transcriber: CallTranscriber | undefined;

  constructor(
    readonly s: CallSession,
    readonly voices: Voices,
    readonly noise?: NoiseOptions,
  ) {
    if (noise) this.timeline.data.noise = noise;
  }

  /** The scenario's customer lines, prepared ahead after the assistant's (see ahead()). */
  customerLines: (string | Fragments)[] = [];

  /**
   * Synthesizes ahead the lines the call is about to need: the assistant's (its first message, its
   * hooks' lines, `lines`), then the scenario's customer lines (synthesized and heard by the
   * detector). Called again as the call goes on, it makes nothing twice.
   */
  ahead(assistant: Json | undefined, lines: readonly string[]): void {
    this.aheadAssistant(assistant, lines);
    for (const line of this.customerLines) void prepare(line, this.voices, this.noise, 'ahead').catch(() => undefined);
  }

  private aheadAssistant(assistant: Json | undefined, lines: readonly string[]): void {
    const hooks = Array.isArray(assistant?.hooks) ? (assistant.hooks as Json[]) : [];
    const said = hooks
      .flatMap((h) => (Array.isArray(h.do) ? (h.do as Json[]) : []))
      .flatMap((a) => (typeof a.exact === 'string' ? [a.exact] : Array.isArray(a.exact) ? a.exact.filter((t): t is string => typeof t === 'string') : []));
    const first = typeof assistant?.firstMessage === 'string' ? [assistant.firstMessage] : [];
    // The developer's voice server speaks each line when it is said, as the platform asks it.
    if (hasCustomVoice(assistant)) return;
    this.voices.ahead('assistant', [...first, ...lines, ...said]);
  }

  /** Opens the assistant's custom transcriber, when it has one, as the call starts; false once the call ended because none could start. */
  async openTranscriber(): Promise<boolean> {
    if (!hasCustomTranscriber(this.s.assistant)) return true;
    this.transcriber = new CallTranscriber(this);
    const t = this.transcriber;
    return this.s.deps.clock.hold(t.connect(false));
  }

  /** Seconds since the call was answered, on its clock. */
  now(): number {
    return this.s.secondsNow();
  }

  /** Waits until `at` (seconds from the start); false once the call ended. */
  until(at: number, wake?: AbortSignal): Promise<boolean> {
    return this.s.wait(Math.max(0, at - this.now()), wake);
  }

  /** Where the customer's current line ends, when they are saying one. */
  customerEnd(): number | undefined {
    return this.placed ? this.placed.at + this.placed.u.seconds : undefined;
  }

  /** The model's time to first token for the reply about to be spoken (measured by the model step). */
  modelAnswered(ms: number): void {
    this.modelMs = ms;
  }

  /** Arms a customer line to be said over the assistant's next line (once the customer's current line is over, with `afterCustomerLine`). */
  arm(line: string | Fragments, over: Over, afterCustomerLine: boolean, live = false): void {
    this.armed = { over, ready: !afterCustomerLine, live, prepared: prepare(line, this.voices, this.noise) };
    this.armed.prepared.catch(() => undefined);
  }

  /** Arms a line `write` makes when it is due (from the words it heard), to be said over the assistant's next line (as `arm`). */
  armWriter(write: LineWriter, over: Over, afterCustomerLine: boolean): void {
    // Nothing to synthesize ahead: the line is written and prepared when it is due.
    this.armed = { over, ready: !afterCustomerLine, live: false, prepared: new Promise<Utterance>(() => undefined), write };
  }

  /** Whether the armed line has started (the next turn is under way, with no pause before it); an armed line that never started is dropped. */
  claimStarted(): boolean {
    this.armed = undefined;
    return this.placed !== undefined;
  }

  /**
   * A line said on the live call over the assistant: `over` into its line under way (now, when
   * that point has passed), else into its next line; with no `over`, now while it speaks. False
   * when it cannot be said over the assistant (it is not speaking and no `over` was given, or
   * the customer is already saying something): it is then the customer's next turn.
   */
  sayOver(text: string, over?: Over): boolean {
    if (this.placed || this.armed?.live || (!over && !this.speaking)) return false;
    this.arm(text, over ?? { afterSeconds: 0 }, false, true);
    if (this.speaking) this.wake.abort();
    return true;
  }

  /** Says an assistant line (assistant.ts); false once the call ended. */
  assistantSays(text: string, options: { streamed?: boolean; source?: LineSource } = {}): Promise<boolean> {
    return assistantSays(this, text, options);
  }

  /** The customer says a line (customer.ts): each turn endpointing makes of it is heard, then answered by `reply` (`last`: the line's last turn). */
  customerSays(line: string | Fragments, reply: (heard: string, last: boolean) => Promise<boolean>): Promise<boolean> {
    return customerSays(this, line, reply);
  }

  /** Places a customer line on the timeline from `at`: its fragments, pauses and the detector's spans. */
  place(u: Utterance, at: number): Placed {
    const line = this.timeline.nextLine('customer');
    for (const f of u.fragments) this.timeline.add({ type: 'speech', side: 'customer', at: at + f.at, end: at + f.end, text: f.text, words: shifted(f.words, at), line });
    for (const p of u.pauses) this.timeline.add({ type: 'pause', side: 'customer', at: at + p.start, end: at + p.end, line });
    for (const s of placedSpans(u, at)) this.timeline.add({ type: 'vad', side: 'customer', at: s.start, end: s.end });
    this.placed = { u, at };
    return this.placed;
  }

  /** A customer turn was judged over now (`speechEnd`: where their speech stopped): the reply starts `waitSeconds` from now at the soonest. */
  afterCustomer(speechEnd: number, endpointSeconds: number, transcriberMs = 0): void {
    this.floor = Math.max(this.floor, this.now() + startPlanOf(this.s.assistant).waitSeconds);
    this.answering = { speechEnd, endpointSeconds, transcriberMs };
  }

  /** Keypad tones on a side's channel from now: `digits` at 0.1 s a key and 0.1 s between keys. */
  tones(side: 'customer' | 'assistant', digits: string): { at: number; end: number } {
    const at = this.now();
    const end = at + digits.length * 0.2;
    this.timeline.add({ type: 'keys', side, at, end, digits });
    return { at, end };
  }

  /** The detector's spans of the customer's line under way, for tests and views. */
  spans(): Span[] {
    return this.placed ? placedSpans(this.placed.u, this.placed.at) : [];
  }

  /** Ends the timeline at the call's length (seconds) and keeps it with the call, for its recording. */
  close(seconds: number): void {
    this.timeline.data.seconds = Math.round(seconds * 1000) / 1000;
    this.transcriber?.close();
    const { store, clock } = this.s.deps;
    const id = this.s.call.id;
    store.remove(TIMELINES, id);
    store.insert(TIMELINES, { callId: id, endedAt: new Date(clock.now()).toISOString(), timeline: this.timeline.data }, { id });
  }
}
