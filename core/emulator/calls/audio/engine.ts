// A call's audio loop on its simulated clock. Each line is synthesized before it is said (the
// clock stands still meanwhile, so a timeline is the same on any machine), and lasts as long as
// its audio. The assistant starts a reply no sooner than the end of the customer's turn plus
// `waitSeconds` (or `backoffSeconds` after it was cut off); the customer's turns end where the
// voice activity detector hears their speech stop plus the endpointing wait; the customer's
// speech over the assistant stops it as `stopSpeakingPlan` says, and the transcript, the
// conversation and the model's next request keep only the words it had reached.
import type { Json } from '../../../messages/index.js';
import type { CallSession } from '../session.js';
import { firstMessageInterruptible, startPlanOf, stopPlanOf } from './plans.js';
import type { NoiseOptions } from './port.js';
import type { Overlap, Span, TurnPart } from './rules.js';
import { stopDecision, turnsOf } from './rules.js';
import type { SpeechEvent, TimelineWord } from './timeline.js';
import { shifted, Timeline } from './timeline.js';
import type { Fragments, Utterance } from './utterance.js';
import { lineText, placedSpans, placedWords, prepare } from './utterance.js';
import type { Voices } from './voices.js';

/** What made the assistant speak a line. */
export type LineSource = NonNullable<SpeechEvent['source']>;

/** A customer line placed on the timeline: said from `at`, what the rules made of it when it overlapped the assistant. */
interface Placed {
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

/** The store collection a call's timeline is kept in, by call id, once the call has ended. */
export const TIMELINES = 'call-audio';

/** The customer's turn the next reply answers: where their speech stopped and what the endpointing waited. */
interface Answering {
  speechEnd: number;
  endpointSeconds: number;
}

/** The audio loop of one call. */
export class CallAudio {
  readonly timeline = new Timeline();
  /** Earliest time (seconds from the start) the assistant may start its next line. */
  private floor = 0;
  private placed: Placed | undefined;
  /** The rest of the customer's line, when endpointing made a turn of its start: where they start again. */
  private resume: { at: number; overlap: Overlap } | undefined;
  /** A customer line to say over the assistant: a scenario turn (`ready` once the customer's line before it is over) or a line said live. */
  private armed: { over: Over; ready: boolean; live: boolean; prepared: Promise<Utterance> } | undefined;
  private answering: Answering | undefined;
  private modelMs: number | undefined;
  private speaking: { start: number; end: number; words: TimelineWord[]; interruptible: boolean; cutAt?: number } | undefined;
  private wake = new AbortController();
  /** The assistant's last words heard, for the endpointing rules that look at them. */
  lastAssistant = '';
  /** Lines said on the live call (`voice call say`), handed back when they cannot be said over the assistant now. */
  lines: { push(line: LiveLine): void } | undefined;

  constructor(
    readonly s: CallSession,
    readonly voices: Voices,
    readonly noise?: NoiseOptions,
  ) {
    if (noise) this.timeline.data.noise = noise;
  }

  /** Synthesizes ahead the lines the assistant is about to need: its first message, its hooks' lines, `lines`. */
  ahead(assistant: Json | undefined, lines: readonly string[]): void {
    const hooks = Array.isArray(assistant?.hooks) ? (assistant.hooks as Json[]) : [];
    const said = hooks.flatMap((h) => (Array.isArray(h.do) ? (h.do as Json[]) : [])).flatMap((a) => (typeof a.exact === 'string' ? [a.exact] : Array.isArray(a.exact) ? a.exact.filter((t): t is string => typeof t === 'string') : []));
    const first = typeof assistant?.firstMessage === 'string' ? [assistant.firstMessage] : [];
    this.voices.ahead('assistant', [...first, ...lines, ...said]);
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

  /** Places a customer line on the timeline from `at`: its fragments, pauses and the detector's spans. */
  private place(u: Utterance, at: number): Placed {
    const line = this.timeline.nextLine('customer');
    for (const f of u.fragments) this.timeline.add({ type: 'speech', side: 'customer', at: at + f.at, end: at + f.end, text: f.text, words: shifted(f.words, at), line });
    for (const p of u.pauses) this.timeline.add({ type: 'pause', side: 'customer', at: at + p.start, end: at + p.end, line });
    for (const s of placedSpans(u, at)) this.timeline.add({ type: 'vad', side: 'customer', at: s.start, end: s.end });
    this.placed = { u, at };
    return this.placed;
  }

  /** What the customer's speech from `at` does to the assistant's line under way. */
  private overlap(o: Overlap, at: number): void {
    const line = this.speaking;
    if (!line || at >= line.end) return;
    const decision = stopDecision(o, stopPlanOf(this.s.assistant), line.interruptible);
    if (decision.kind === 'acknowledgement') {
      if (this.placed) this.placed.acknowledgement = true;
      this.timeline.add({ type: 'acknowledgement', at, text: o.text });
      this.s.log(`The customer said "${o.text}" over the assistant: an acknowledgement phrase, so the assistant carried on`);
    } else if (decision.kind === 'cut') {
      if (decision.at < line.end && (line.cutAt === undefined || decision.at < line.cutAt)) line.cutAt = decision.at;
      this.cutRule = decision.rule;
    } else {
      const heard = o.words.filter((w) => w.start < line.end).map((w) => w.word);
      this.timeline.add({ type: 'interruption', by: 'assistant', at, rule: decision.rule, heard: heard.join(' ') });
      this.s.interruptions.count('assistant');
      this.s.log(`The assistant talked over the customer (${decision.rule})`);
      void this.s.hooks?.interrupted('customer.speech.interrupted');
    }
  }

  private cutRule = '';

  /** Says the armed customer line over the assistant's line under way: from its `over` point, no sooner than `earliest`, no later than the line's end. */
  private async sayArmed(earliest: number): Promise<void> {
    const armed = this.armed;
    const line = this.speaking;
    if (!armed?.ready || this.placed || !line) return;
    this.armed = undefined;
    const u = await armed.prepared;
    const offset = 'afterSeconds' in armed.over ? armed.over.afterSeconds : (line.words[armed.over.afterWords - 1]?.end ?? Infinity) - line.start;
    const at = Math.min(Math.max(earliest, line.start + offset), line.end);
    this.place(u, at);
    if (armed.live) this.lines?.push({ text: u.text, started: true });
    this.overlap({ text: u.text, words: placedWords(u, at), speech: placedSpans(u, at)[0] }, at);
  }

  /** Says an assistant line (see the file's comment); false once the call ended. */
  async assistantSays(text: string, options: { streamed?: boolean; source?: LineSource } = {}): Promise<boolean> {
    const s = this.s;
    const source = options.source ?? 'reply';
    const { speech, ms } = await this.voices.speech('assistant', text);
    const customerEnd = this.customerEnd();
    const floor = source === 'reply' || customerEnd === undefined ? this.floor : Math.max(this.floor, customerEnd);
    if (floor > this.now() && !(await this.until(floor))) return false;
    if (source === 'reply' && this.resume && this.resume.at <= this.now()) {
      this.timeline.add({ type: 'dropped', at: this.now(), text });
      s.log(`The assistant's reply was never said: the customer spoke again first ("${text}")`);
      s.lastLine = { text, heard: '' };
      return !s.ended;
    }
    const start = this.now();
    this.noteLatency(start, ms);
    const begun = s.lineStarted('assistant', text, options.streamed === true);
    const line = this.timeline.nextLine('assistant');
    const words = shifted(speech.words, start);
    const event: SpeechEvent = this.timeline.add({ type: 'speech', side: 'assistant', at: start, end: start + speech.duration, text, words, line, source });
    this.speaking = { start, end: start + speech.duration, words, interruptible: source !== 'first-message' || firstMessageInterruptible(s.assistant) };
    if (this.resume) this.overlap(this.resume.overlap, this.resume.at);
    else await this.sayArmed(start);
    let going = true;
    for (;;) {
      if (this.wake.signal.aborted) this.wake = new AbortController();
      going = await this.until(this.speaking.cutAt ?? this.speaking.end, this.wake.signal);
      // Woken by a line said live over this one: it is placed now, and the wait goes on to the (new) end.
      if (!going || !this.wake.signal.aborted || !this.armed?.live) break;
      await this.sayArmed(this.now());
    }
    const cutAt = going ? this.speaking.cutAt : this.now();
    this.speaking = undefined;
    const heard = cutAt === undefined ? text : words.filter((w) => w.start < cutAt).map((w) => w.word).join(' ');
    if (cutAt !== undefined) {
      event.end = Math.round(cutAt * 1000) / 1000;
      event.cut = { at: event.end, heard };
    }
    s.lastLine = { text, heard };
    if (!going) return false;
    if (cutAt !== undefined) this.cutOff(cutAt, heard);
    this.lastAssistant = heard;
    if (source !== 'hook') s.hooks?.assistantDone(this.now());
    s.lineEnded('assistant', heard, begun);
    return !s.ended;
  }

  /** The customer cut the assistant off at `at`: counted, `user-interrupted` sent, the backoff begins. */
  private cutOff(at: number, heard: string): void {
    this.timeline.add({ type: 'interruption', by: 'customer', at, rule: this.cutRule, heard });
    this.s.log(`The customer interrupted the assistant (${this.cutRule}); it stopped after "${heard}"`);
    this.s.userInterrupts();
    this.floor = Math.max(this.floor, at + stopPlanOf(this.s.assistant).backoffSeconds);
    void this.s.hooks?.interrupted('assistant.speech.interrupted');
  }

  /** Notes the turn latencies of a reply starting at `start` (after a customer turn). */
  private noteLatency(start: number, voiceMs: number): void {
    const turn = this.answering;
    if (!turn) return;
    this.answering = undefined;
    const latency = {
      modelLatency: Math.round(this.modelMs ?? 0),
      voiceLatency: voiceMs,
      transcriberLatency: 0,
      endpointingLatency: Math.round(turn.endpointSeconds * 1000),
      turnLatency: Math.round((start - turn.speechEnd) * 1000),
    };
    this.modelMs = undefined;
    this.timeline.add({ type: 'latency', at: start, ...latency });
    this.s.latencies.push(latency);
  }

  /** The customer says a line: each turn endpointing makes of it is heard, then answered by `reply` (`last`: the line's last turn). */
  async customerSays(line: string | Fragments, reply: (heard: string, last: boolean) => Promise<boolean>): Promise<boolean> {
    const text = lineText(line);
    const started = this.placed?.u.text === text ? this.placed : undefined;
    const placed = started ?? this.place(await prepare(line, this.voices, this.noise), this.now());
    if (placed.acknowledgement) {
      this.placed = undefined;
      return this.until(placed.at + placed.u.seconds);
    }
    const words = placedWords(placed.u, placed.at);
    const parts = turnsOf(words, placedSpans(placed.u, placed.at), this.lastAssistant, startPlanOf(this.s.assistant));
    if (!parts.length) {
      this.s.log(`The voice activity detector heard no speech in the customer's line ("${text}"): nothing was transcribed`, 'WARN');
      const ok = await this.until(placed.at + placed.u.seconds);
      this.placed = undefined;
      return ok;
    }
    for (const [k, part] of parts.entries()) {
      const next = parts[k + 1];
      if (!(await this.heard(part))) return false;
      this.resume = next ? { at: next.speechStart, overlap: { text: parts.slice(k + 1).map((p) => p.text).join(' '), words: parts.slice(k + 1).flatMap((p) => p.words), speech: { start: next.speechStart, end: next.speechEnd } } } : undefined;
      if (!next) {
        this.placed = undefined;
        if (this.armed) this.armed.ready = true;
      }
      if (!(await reply(part.text, !next))) return false;
    }
    this.resume = undefined;
    return !this.s.ended;
  }

  /** One turn of the customer's: speech messages as it is said, then the user message once endpointing judged it over. */
  private async heard(part: TurnPart): Promise<boolean> {
    const s = this.s;
    if (!(await this.until(part.speechStart))) return false;
    const begun = s.lineStarted('user', part.text, false);
    if (!(await this.until(part.endpointAt))) return false;
    this.timeline.add({ type: 'endpoint', at: part.endpointAt, speechEnd: part.speechEnd, rule: part.rule, seconds: part.seconds, transcript: part.text });
    s.lineEnded('user', part.text, begun, part.speechEnd);
    s.hooks?.customerSpoke();
    this.afterCustomer(part.speechEnd, part.seconds);
    return true;
  }

  /** A customer turn was judged over now (`speechEnd`: where their speech stopped): the reply starts `waitSeconds` from now at the soonest. */
  afterCustomer(speechEnd: number, endpointSeconds: number): void {
    this.floor = Math.max(this.floor, this.now() + startPlanOf(this.s.assistant).waitSeconds);
    this.answering = { speechEnd, endpointSeconds };
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
    const { store, clock } = this.s.deps;
    const id = this.s.call.id;
    store.remove(TIMELINES, id);
    store.insert(TIMELINES, { callId: id, endedAt: new Date(clock.now()).toISOString(), timeline: this.timeline.data }, { id });
  }
}
