// The developer's own transcriber (`transcriber.provider: custom-transcriber`): a WebSocket opened
// when the call starts (stack/transcriber-link.ts), then the call's audio as it happens: each
// customer turn's audio, and the assistant's before it, is sent in 100 ms frames paced on the
// call's clock up to the end of the customer's speech. What the server answers for the customer
// channel is the turn: its transcript, its message, what the model reads and what endpointing
// judges. The clock is held while the call waits for it; `transcriberLatency` is the real time from
// the turn's last frame to the last transcription. A transcriber that cannot be reached, closes,
// sends garbage or gives no transcription within its `timeoutSeconds` hands over to
// `fallbackPlan.transcribers` (a built-in provider there stands in with the line as written);
// with none left the call ends: `pipeline-error-custom-transcriber-failed` when it could not
// start, `call.in-progress.error-vapifault-custom-transcriber-failed` when it failed mid-call. A web
// call's transcriber hears the microphone live, and the same timeout runs from where the voice
// activity detector heard the customer stop.
import type { Json } from '../../../messages/index.js';
import { serverOf } from '../deliver.js';
import { TranscriberLink } from '../stack/transcriber-link.js';
import type { CallAudio } from './engine.js';
import { renderChannels } from './render.js';
import type { TurnPart } from './rules.js';
import { SAMPLE_RATE } from './timeline.js';
import { isObject } from '../../../json.js';

/** The provider of the developer's own transcriber. */
export const CUSTOM_TRANSCRIBER = 'custom-transcriber';

/** The endedReason when no transcriber could start. */
export const TRANSCRIBER_FAILED = 'pipeline-error-custom-transcriber-failed';

/** The endedReason when the transcriber failed during the call and no fallback was left. */
export const TRANSCRIBER_FAILED_IN_CALL = 'call.in-progress.error-vapifault-custom-transcriber-failed';

/** Seconds of call audio in one binary frame. */
const FRAME_SECONDS = 0.1;

/** Seconds of a web call's live audio kept for a fallback transcriber to hear again. */
const KEPT_SECONDS = 30;

/** Why a transcriber that answered nothing for the customer's speech failed. */
const silence = (timeoutMs: number): string => `no transcription of the customer's speech within ${timeoutMs / 1000} s`;

/** Whether the assistant listens with a transcriber server. */
export function hasCustomTranscriber(assistant: Json | undefined): boolean {
  return isObject(assistant?.transcriber) && assistant.transcriber.provider === CUSTOM_TRANSCRIBER;
}

/** A customer turn as the transcriber heard it: its words, and ms from its audio's end to the transcription. */
export interface HeardTurn {
  text: string;
  latencyMs: number;
}

/** A call's link to the developer's transcriber and its fallbacks. */
export class CallTranscriber {
  private link: TranscriberLink | undefined;
  private readonly candidates: Json[];
  private index = -1;
  /** Seconds of the call's audio sent so far. */
  private sent = 0;
  private timeoutMs = 20_000;
  /** A built-in fallback took over: the line as written stands in for a transcription. */
  private standIn = false;
  /** Binary frames sent so far (a turn's event counts its own). */
  private frames = 0;
  /** Whether the turns' transcriptions came from a transcriber server (their latency was measured). */
  measured = false;
  /** A web call's live audio sent lately (interleaved stereo bytes from `at`, seconds on the call's clock). */
  private kept: { at: number; bytes: Buffer }[] = [];
  /** When (on the call's clock) a web call's transcriber last transcribed the customer. */
  private lastHeard = -Infinity;
  /** Where the speech a web call's failed transcriber never transcribed starts: the next one hears it from there. */
  private replayFrom: number | undefined;

  constructor(private readonly a: CallAudio) {
    const t = a.s.assistant?.transcriber as Json;
    const fallbacks = isObject(t.fallbackPlan) && Array.isArray(t.fallbackPlan.transcribers) ? (t.fallbackPlan.transcribers as unknown[]).filter(isObject) : [];
    this.candidates = [t, ...fallbacks];
  }

  /** Connects to the next transcriber that answers; false once the call ended because none did (`inCall`: it failed mid-call). */
  async connect(inCall: boolean, cause?: string): Promise<boolean> {
    const s = this.a.s;
    const causes = cause ? [cause] : [];
    this.link?.close();
    this.link = undefined;
    while (++this.index < this.candidates.length) {
      const c = this.candidates[this.index] as Json;
      const name = this.index === 0 ? 'The custom transcriber' : `Fallback transcriber ${this.index} (${String(c.provider)})`;
      if (c.provider !== CUSTOM_TRANSCRIBER) {
        this.standIn = true;
        s.log(`${name} takes over: the customer's lines as written stand in for its transcriptions (after: ${causes.join('; ')})`, 'WARN');
        return true;
      }
      const target = serverOf(c);
      const got = target ? await TranscriberLink.open(target.url, target.headers, target.timeoutSeconds * 1000, SAMPLE_RATE) : 'the transcriber has no server.url';
      if (typeof got !== 'string') {
        this.link = got;
        this.timeoutMs = (target?.timeoutSeconds ?? 20) * 1000;
        s.log(`${name} is connected (${got.url}): the call's audio goes to it as 16-bit stereo at ${SAMPLE_RATE} Hz, customer channel 0`);
        return true;
      }
      causes.push(`${target?.url ?? 'no url'}: ${got}`);
      s.log(`${name} could not be reached: ${got}`, 'ERROR');
    }
    const reason = inCall ? TRANSCRIBER_FAILED_IN_CALL : TRANSCRIBER_FAILED;
    s.log(`No transcriber is left (${causes.join('; ')}): the call ends ${reason}`, 'ERROR');
    s.finish(reason);
    return false;
  }

  /** The customer's turn as the transcriber hears it (see the file's comment); undefined once the call ended. */
  async turn(part: TurnPart): Promise<HeardTurn | undefined> {
    const link = this.link;
    if (this.standIn || !link) return { text: part.text, latencyMs: 0 };
    const since = link.heard.length;
    const framesBefore = this.frames;
    if (!(await this.stream(link, part.speechEnd))) return undefined;
    const end = performance.now();
    const ours = (): string[] => link.heard.slice(since).flatMap((h) => (h.channel === 'customer' ? [h.text] : []));
    await this.a.s.deps.clock.hold(
      (async () => {
        while (!link.failed && !ours().length && performance.now() - end < this.timeoutMs) await link.next(this.timeoutMs - (performance.now() - end));
      })(),
    );
    if (this.a.s.ended) return undefined;
    const said = ours();
    if (!said.length) {
      const cause = `${link.url}: ${link.failed ?? silence(this.timeoutMs)}`;
      this.a.s.log(`The transcriber failed: ${cause}`, 'ERROR');
      // The next transcriber hears this turn again from its start.
      this.sent = Math.min(this.sent, part.speechStart);
      if (!(await this.connect(true, cause))) return undefined;
      return this.turn(part);
    }
    this.measured = true;
    const last = link.heard.filter((h) => h.channel === 'customer').at(-1);
    const latencyMs = Math.max(0, Math.round((last?.arrivedMs ?? end) - end));
    const text = said.join(' ').trim();
    const messages = link.heard.slice(since).map((h) => ({ channel: h.channel, text: h.text }));
    this.a.timeline.add({ type: 'transcriber', at: this.a.now(), url: link.url, text, written: part.text, latencyMs, frames: this.frames - framesBefore, messages });
    return { text, latencyMs };
  }

  /** Sends the call's audio up to `end` (seconds), a frame each 100 ms of the call's clock; false once the call ended. */
  private async stream(link: TranscriberLink, end: number): Promise<boolean> {
    const a = this.a;
    const channels = await renderChannels(a.timeline.data, a.voices, end);
    for (let t = this.sent; t < end - 1e-6;) {
      const to = Math.min(end, t + FRAME_SECONDS);
      if (to > a.now() && !(await a.until(to))) return false;
      const [from, until] = [Math.round(t * SAMPLE_RATE), Math.round(to * SAMPLE_RATE)];
      const stereo = a.voices.port.interleave(
        { samples: channels.customer.subarray(from, until), sampleRate: SAMPLE_RATE },
        { samples: channels.assistant.subarray(from, until), sampleRate: SAMPLE_RATE },
      ).samples;
      link.send(Buffer.from(stereo.buffer, stereo.byteOffset, stereo.byteLength));
      this.frames++;
      t = to;
    }
    this.sent = Math.max(this.sent, end);
    return true;
  }

  /** Whether a transcriber server is listening now (not a built-in fallback standing in). */
  get hearing(): boolean {
    return this.link !== undefined && !this.standIn;
  }

  /**
   * A web call's live audio from `at` (seconds on the call's clock): `customer` (the microphone) and
   * `assistant` (what the page was sent for the same moment), same length, sent at once as one
   * interleaved frame, and kept a while for a fallback to hear again.
   */
  live(customer: Int16Array, assistant: Int16Array, at: number): void {
    if (!this.hearing || !this.link) return;
    const stereo = this.a.voices.port.interleave({ samples: customer, sampleRate: SAMPLE_RATE }, { samples: assistant, sampleRate: SAMPLE_RATE }).samples;
    const bytes = Buffer.from(stereo.buffer, stereo.byteOffset, stereo.byteLength);
    this.link.send(bytes);
    this.frames++;
    this.kept.push({ at, bytes });
    while ((this.kept[0]?.at ?? at) < at - KEPT_SECONDS) this.kept.shift();
  }

  /**
   * A web call's customer spoke from `start` to `end` (the detector's span, seconds on the call's
   * clock): with no transcription for the customer since `start` within the server's
   * `timeoutSeconds` after `end`, the transcriber has failed, as on phone calls (its fallback hears
   * that speech again; with none left the call ends).
   */
  spoke(start: number, end: number): void {
    const link = this.link;
    if (!link || !this.hearing) return;
    const timeoutMs = this.timeoutMs;
    void this.a.until(end + timeoutMs / 1000).then((going) => {
      if (!going || this.link !== link || link.failed !== undefined || this.lastHeard >= start) return;
      this.replayFrom = start;
      link.fail(silence(timeoutMs));
    });
  }

  /** Sends a web call's new transcriber the speech its predecessor never transcribed, and waits for its answer as for any speech. */
  private replay(): void {
    const from = this.replayFrom;
    this.replayFrom = undefined;
    if (from === undefined || !this.hearing || !this.link) return;
    for (const k of this.kept) {
      if (k.at < from - FRAME_SECONDS) continue;
      this.link.send(k.bytes);
      this.frames++;
    }
    this.spoke(from, this.a.now());
  }

  /**
   * A web call's turns: `heard` gets each transcription of the customer channel as it arrives
   * (with when it arrived, performance.now()) and gives its latency when it measured one; a link
   * that fails hands over to the fallbacks, as on phone calls, and the call ends when none is left.
   */
  follow(heard: (text: string, arrivedMs: number) => number | undefined): void {
    const link = this.link;
    if (!link) return;
    let framesBefore = this.frames;
    link.watch = (t) => {
      if (this.link !== link || this.a.s.ended) return;
      if (t?.channel === 'customer') {
        this.lastHeard = this.a.now();
        const latencyMs = heard(t.text, t.arrivedMs);
        this.a.timeline.add({ type: 'transcriber', at: this.a.now(), url: link.url, text: t.text, frames: this.frames - framesBefore, ...(latencyMs === undefined ? {} : { latencyMs }) });
        framesBefore = this.frames;
      }
      if (t) return;
      const cause = `${link.url}: ${link.failed ?? 'it failed'}`;
      this.a.s.log(`The transcriber failed: ${cause}`, 'ERROR');
      void this.connect(true, cause).then((going) => {
        if (!going) return;
        this.follow(heard);
        this.replay();
      });
    };
  }

  /** Closes the link when the call ends. */
  close(): void {
    if (this.link) this.link.watch = undefined;
    this.link?.close();
  }
}
