// Speech for both sides of the emulator's calls, kept by voice and text: the synthesizer gives the
// same samples for the same text, so a line said again (a scenario's lines, a greeting, the
// stand-in reply) costs nothing after its first time. Lines known before they are said (a
// scenario's customer lines, an assistant's first message) are synthesized ahead, while the call
// waits on its clock. A line is made in pieces cut as the platform's `chunkPlan` cuts a reply
// (STAND_IN_PLAN: a short first piece), always the same pieces for the same text, so the assistant
// can start a line once its first piece is made (line-stream.ts). Synthesis runs on the audio
// package's worker threads, so it never stops the emulator's other work (REST answers, other
// calls' clocks), the pieces are made side by side, and what is said ahead overlaps the call.
import { chunksOf, STAND_IN_PLAN } from '../stack/chunks.js';
import { joined } from './line-stream.js';
import type { AudioPort, SpeechLike, SynthesizerLike } from './port.js';

/** Whose voice: the simulated customer's or the assistant's stand-in. */
export type Side = 'customer' | 'assistant';

/** Samples kept at most (about 64 MB of 16-bit audio: some 35 minutes of speech); the oldest go first. */
const MAX_SAMPLES = 32 * 1024 * 1024;

/** A line being made: its pieces' texts and speech, which of them are made, and the whole. */
interface Making {
  texts: string[];
  pieces: Promise<SpeechLike>[];
  made: boolean[];
  whole: Promise<SpeechLike>;
}

/** Synthesized lines, kept by voice and text, with how long each took to make. */
export class Voices {
  private readonly kept = new Map<string, Making>();
  private readonly sizes = new Map<string, number>();
  private samples = 0;
  /** Audio that cannot be made again (a voice server's), by key, oldest first. */
  private readonly recorded = new Map<string, SpeechLike>();
  private recordedSamples = 0;

  private readonly synth: SynthesizerLike;
  /** Whether asking again moves a line to the front (the worker's queue) rather than saying it twice. */
  private readonly queued: boolean;

  constructor(readonly port: AudioPort) {
    const threaded = port.createSynthesizer?.();
    this.synth = threaded ?? port;
    this.queued = (threaded?.threads ?? 0) > 0;
  }

  /** The speech of `text` in `side`'s voice and the milliseconds this call waited for it (0 when it was ready); `ahead`: made after what is needed now. */
  async speech(side: Side, text: string, urgency: 'now' | 'ahead' = 'now'): Promise<{ speech: SpeechLike; ms: number }> {
    const key = `${side}\n${text}`;
    const ready = this.sizes.has(key);
    const started = performance.now();
    const speech = await this.get(key, side, text, urgency).whole;
    return { speech, ms: ready ? 0 : Math.round(performance.now() - started) };
  }

  /** The speech of `text`'s pieces in order, once the first is made, and the milliseconds this call waited for it (0 when it was ready). */
  async pieces(side: Side, text: string): Promise<{ pieces: [Promise<SpeechLike>, ...Promise<SpeechLike>[]]; ms: number }> {
    const making = this.get(`${side}\n${text}`, side, text, 'now');
    const ready = making.made[0] === true;
    const started = performance.now();
    await making.pieces[0];
    return { pieces: making.pieces as [Promise<SpeechLike>, ...Promise<SpeechLike>[]], ms: ready ? 0 : Math.round(performance.now() - started) };
  }

  /** Keeps audio that cannot be synthesized again (a voice server's line), for the call's recording; the oldest go first past the cap. */
  record(key: string, speech: SpeechLike): void {
    // Kept again as more of it arrives: the newer audio replaces the older.
    this.recordedSamples -= this.recorded.get(key)?.samples.length ?? 0;
    this.recorded.delete(key);
    this.recorded.set(key, speech);
    this.recordedSamples += speech.samples.length;
    for (const [old, kept] of this.recorded) {
      if (this.recordedSamples <= MAX_SAMPLES || old === key) break;
      this.recorded.delete(old);
      this.recordedSamples -= kept.samples.length;
    }
  }

  /** Audio kept by `record`, while it is kept. */
  recordedAudio(key: string): SpeechLike | undefined {
    return this.recorded.get(key);
  }

  /** Starts synthesizing lines that will be said soon, without waiting for them. */
  ahead(side: Side, texts: readonly string[]): void {
    for (const text of texts) if (text.trim()) this.get(`${side}\n${text}`, side, text, 'ahead');
  }

  private get(key: string, side: Side, text: string, urgency: 'now' | 'ahead'): Making {
    const found = this.kept.get(key);
    if (found) {
      // Said ahead and not made yet, now needed: the synthesizer moves its pieces to the front.
      if (urgency === 'now' && this.queued && !this.sizes.has(key))
        for (const [i, piece] of found.texts.entries()) if (!found.made[i]) void this.synth.synthesize(piece, { voice: side, urgency }).catch(() => undefined);
      // Most recently used last: Map keeps insertion order, so the first key is the oldest.
      this.kept.delete(key);
      this.kept.set(key, found);
      return found;
    }
    const cut = chunksOf(text, STAND_IN_PLAN);
    const texts = cut.length ? cut : [text];
    const made = texts.map(() => false);
    const pieces = texts.map((piece, i) => {
      const speech = this.synth.synthesize(piece, { voice: side, urgency });
      speech.then(
        () => (made[i] = true),
        () => undefined,
      );
      return speech;
    });
    const whole = Promise.all(pieces).then((parts) => joined(text, parts));
    const making: Making = { texts, pieces, made, whole };
    this.kept.set(key, making);
    whole.then(
      (s) => this.keep(key, s.samples.length),
      () => this.kept.delete(key),
    );
    return making;
  }

  private keep(key: string, size: number): void {
    if (!this.kept.has(key)) return;
    this.sizes.set(key, size);
    this.samples += size;
    for (const old of this.kept.keys()) {
      if (this.samples <= MAX_SAMPLES || old === key) break;
      this.kept.delete(old);
      this.samples -= this.sizes.get(old) ?? 0;
      this.sizes.delete(old);
    }
  }
}
