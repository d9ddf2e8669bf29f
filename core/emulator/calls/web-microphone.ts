// A browser's microphone in a web call with sound: its audio, placed on the call's clock from the
// moment it arrives, goes to the voice activity detector (silero, from voice-agent-audio), which
// marks where the customer speaks on the timeline, stops the assistant as its `stopSpeakingPlan`
// says, and, when the browser has no speech recognition, makes a wordless turn once the
// endpointing wait has passed. The words still come from the browser (recognition, or typed).
// Every piece is also handed to `listeners` (the developer's transcriber, web-transcriber.ts) and
// kept for the call's recording.
import type { CallAudio } from './audio/engine.js';
import { overlap } from './audio/assistant.js';
import { KEPT_SECONDS, keepMicrophone } from './audio/microphone.js';
import { startPlanOf, stopPlanOf } from './audio/plans.js';
import type { VadStreamLike } from './audio/port.js';
import type { Span } from './audio/rules.js';
import { endpointingOf, stopDecision } from './audio/rules.js';
import { lineEnded, lineStarted } from './speech.js';
import type { HeldTurn } from './web-endpointing.js';

/** Pieces held while the detector loads (about 10 s of 100 ms pieces). */
const MAX_WAITING = 100;
/** A gap in the microphone's audio longer than this (a stalled tab) is silence: what comes next is placed at the call's time. */
const GAP_SECONDS = 0.5;

/** The microphone of a browser in a web call with sound. */
export class BrowserMicrophone {
  /** Called with each piece of audio and where it starts on the call's clock (seconds). */
  readonly listeners = new Set<(samples: Int16Array, at: number) => void>();
  /** Called with each span of speech the detector closes (seconds on the call's clock). */
  readonly spans = new Set<(span: Span) => void>();
  /** The browser turns speech into words itself: the detector makes no wordless turns. */
  recognition = false;
  private vad: VadStreamLike | undefined;
  private waiting: Int16Array[] | undefined = [];
  private offset: number | undefined;
  private received = 0;
  private readonly kept: { at: number; samples: Int16Array }[] = [];
  private keptSamples = 0;
  private speech: number | undefined;
  /** Words arrived for the speech under way (it is their turn, not a wordless one). */
  private worded = false;
  /** Bumped by each start of speech: a wordless turn waiting on the endpointing is dropped when it changed. */
  private generation = 0;

  constructor(
    private readonly a: CallAudio,
    readonly sampleRate: number,
    /** A wordless turn: the customer spoke over `span` and said nothing the browser recognised. */
    private readonly turn: (span: Span) => void,
  ) {
    a.voices.port.createVadStream({ sampleRate }).then(
      (vad) => {
        this.vad = vad;
        for (const piece of this.waiting ?? []) this.detect(piece);
        this.waiting = undefined;
      },
      (err: unknown) => a.s.log(`Audio: the voice activity detector could not start (${(err as Error).message}); the microphone is recorded but not listened to`, 'WARN'),
    );
    a.s.stop.signal.addEventListener('abort', () => this.close(), { once: true });
  }

  /** Whether the customer is speaking now (as the detector hears it). */
  get speaking(): boolean {
    return this.speech !== undefined;
  }

  /** A piece of the microphone's audio, as it arrives. */
  push(samples: Int16Array): void {
    if (this.a.s.ended) return;
    const now = this.a.now();
    this.offset ??= now;
    if (now - (this.offset + this.received / this.sampleRate) > GAP_SECONDS) this.offset = now - this.received / this.sampleRate;
    const at = this.offset + this.received / this.sampleRate;
    this.received += samples.length;
    if ((this.keptSamples += samples.length) <= KEPT_SECONDS * this.sampleRate) this.kept.push({ at, samples });
    for (const listener of this.listeners) listener(samples, at);
    if (this.vad) this.detect(samples);
    else if (this.waiting && this.waiting.length < MAX_WAITING) this.waiting.push(samples);
  }

  /**
   * The browser heard words while the assistant may be speaking: an acknowledgement phrase leaves
   * it speaking (and is no turn: false), anything else may stop it as the plan says (true: a turn).
   */
  said(text: string): boolean {
    this.worded = true;
    const line = this.a.speaking;
    if (!line) return true;
    const now = this.a.now();
    const words = text
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => ({ word, start: now, end: now }));
    const heard = { text, words, ...(this.speech !== undefined ? { speech: { start: Math.max(this.speech, line.start), end: now } } : {}) };
    const decision = stopDecision(heard, stopPlanOf(this.a.s.assistant), line.interruptible);
    overlap(this.a, heard, now, false);
    if (decision.kind === 'cut') this.stopAssistant(decision.rule);
    return decision.kind !== 'acknowledgement';
  }

  private detect(samples: Int16Array): void {
    const vad = this.vad;
    if (!vad || this.offset === undefined) return;
    for (const e of vad.push(samples)) {
      const t = this.offset + e.time;
      if (e.type === 'speech-start') this.started(t);
      else this.stopped(t);
    }
    if (vad.speaking) this.over();
  }

  private started(at: number): void {
    this.speech = at;
    this.worded = false;
    this.generation++;
  }

  private stopped(end: number): void {
    const start = this.speech ?? end;
    this.speech = undefined;
    this.a.timeline.add({ type: 'vad', side: 'customer', at: start, end });
    for (const listener of this.spans) listener({ start, end });
    if (this.recognition || this.worded) return;
    const generation = this.generation;
    const { seconds } = endpointingOf('', this.a.lastAssistant, startPlanOf(this.a.s.assistant));
    void this.a.until(end + seconds).then((going) => {
      if (going && generation === this.generation && !this.worded) this.turn({ start, end });
    });
  }

  /** The customer is speaking: over the assistant, `voiceSeconds` of it stops it (words are judged in `said`). */
  private over(): void {
    const line = this.a.speaking;
    if (!line || line.cutAt !== undefined || this.speech === undefined) return;
    const now = this.a.now();
    const decision = stopDecision({ text: '', words: [], speech: { start: Math.max(this.speech, line.start), end: now } }, stopPlanOf(this.a.s.assistant), line.interruptible);
    if (decision.kind === 'cut') this.stopAssistant(decision.rule);
  }

  /** Stops the assistant's line now: the stream is cut where the customer's speech reached. */
  private stopAssistant(rule: string): void {
    const line = this.a.speaking;
    if (!line) return;
    line.cutAt = Math.max(line.start, Math.min(line.cutAt ?? Infinity, this.a.now()));
    line.cutRule = rule;
    this.a.wake.abort();
  }

  private close(): void {
    const events = this.vad?.end() ?? [];
    for (const e of events) if (e.type === 'speech-end' && this.offset !== undefined) this.stopped(this.offset + e.time);
    const first = this.kept[0];
    const last = this.kept.at(-1);
    if (!first || !last) return;
    const rate = this.sampleRate;
    const samples = new Int16Array(Math.round((last.at - first.at) * rate) + last.samples.length);
    for (const k of this.kept) samples.set(k.samples.subarray(0, Math.max(0, samples.length - Math.round((k.at - first.at) * rate))), Math.round((k.at - first.at) * rate));
    keepMicrophone(this.a.s.call.id, { at: first.at, sampleRate: rate, samples });
  }
}

/**
 * A customer turn heard from the browser (its words, or a wordless span): its messages now, and the
 * endpointing that ended it on the timeline (`held`: the developer's endpointing held it).
 */
export function browserTurn(a: CallAudio, text: string, span: Span | undefined, transcriberMs = 0, held?: HeldTurn): void {
  const s = a.s;
  const now = a.now();
  const speechEnd = held?.speechEnd ?? Math.min(span?.end ?? now, now);
  // A wordless turn was ended by the wait for no words (the text is lent by the scenario, or says how long they spoke).
  const { seconds, rule } = held?.endpointing ?? endpointingOf(span ? '' : text, a.lastAssistant, startPlanOf(s.assistant));
  const begun = lineStarted(s, 'user', text, false);
  a.timeline.add({ type: 'endpoint', at: now, speechEnd, rule, seconds, transcript: text });
  lineEnded(s, 'user', text, begun);
  s.hooks?.customerSpoke();
  a.afterCustomer(speechEnd, seconds, transcriberMs);
}
