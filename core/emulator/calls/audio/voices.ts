// Speech for both sides of the emulator's calls, kept by voice and text: the synthesizer gives the
// same samples for the same text, so a line said again (a scenario's lines, a greeting, the
// stand-in reply) costs nothing after its first time. Lines known before they are said (a
// scenario's customer lines, an assistant's first message) are synthesized ahead, while the call
// waits on its clock. Synthesis runs on the audio package's worker thread, so it never stops the
// emulator's other work (REST answers, other calls' clocks) and what is said ahead overlaps the call.
import type { AudioPort, SpeechLike, SynthesizerLike } from './port.js';

/** Whose voice: the simulated customer's or the assistant's stand-in. */
export type Side = 'customer' | 'assistant';

/** Samples kept at most (about 64 MB of 16-bit audio: some 35 minutes of speech); the oldest go first. */
const MAX_SAMPLES = 32 * 1024 * 1024;

/** Synthesized lines, kept by voice and text, with how long each took to make. */
export class Voices {
  private readonly kept = new Map<string, Promise<SpeechLike>>();
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
    const speech = await this.get(key, side, text, urgency);
    return { speech, ms: ready ? 0 : Math.round(performance.now() - started) };
  }

  /** Keeps audio that cannot be synthesized again (a voice server's line), for the call's recording; the oldest go first past the cap. */
  record(key: string, speech: SpeechLike): void {
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
    for (const text of texts) if (text.trim()) void this.get(`${side}\n${text}`, side, text, 'ahead').catch(() => undefined);
  }

  private get(key: string, side: Side, text: string, urgency: 'now' | 'ahead'): Promise<SpeechLike> {
    const found = this.kept.get(key);
    if (found) {
      // Said ahead and not made yet, now needed: the synthesizer moves it to the front.
      if (urgency === 'now' && this.queued && !this.sizes.has(key)) void this.synth.synthesize(text, { voice: side, urgency }).catch(() => undefined);
      // Most recently used last: Map keeps insertion order, so the first key is the oldest.
      this.kept.delete(key);
      this.kept.set(key, found);
      return found;
    }
    const made = this.synth.synthesize(text, { voice: side, urgency });
    this.kept.set(key, made);
    made.then(
      (s) => this.keep(key, s.samples.length),
      () => this.kept.delete(key),
    );
    return made;
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
