// The developer's transcriber (`transcriber.provider: custom-transcriber`) in a web call with sound:
// each piece of the page's microphone (customer channel 0) goes to it as it arrives, interleaved
// with the assistant's audio streamed to the page for the same moment (channel 1), over the phone
// calls' own link and fallbacks (audio/custom-transcriber.ts). What it answers for the customer
// channel is the customer's turn, in place of the browser's speech recognition.
import type { AssistantLineOut, AssistantOut, CallAudio } from './audio/engine.js';
import type { CallTranscriber } from './audio/custom-transcriber.js';
import { SAMPLE_RATE } from './audio/timeline.js';

/** Seconds of the assistant's past lines kept for the microphone's pieces still to come. */
const KEPT_SECONDS = 5;

/** One assistant line as the page was sent it: from `at` on the call's clock, until `cutAt` when it was cut. */
interface SentLine {
  at: number;
  samples: Int16Array;
  cutAt?: number;
}

/** Feeds a web call's transcriber: the assistant's audio passes through it on its way to the page (`out`), the microphone's comes to `hear`. */
export class WebTranscriber implements AssistantOut {
  private readonly lines: SentLine[] = [];
  /** Where on the call's clock a transcription last made a turn: the detector's spans before it are spent. */
  private lastTurn = 0;

  constructor(
    private readonly a: CallAudio,
    private readonly t: CallTranscriber,
    private readonly out: AssistantOut,
    /** A customer turn: the transcriber's words, and ms from the end of the customer's speech (undefined: not measured). */
    turn: (text: string, latencyMs: number | undefined) => void,
  ) {
    t.follow((text, arrivedMs) => {
      const latencyMs = this.latency(arrivedMs);
      turn(text, latencyMs);
      return latencyMs;
    });
  }

  line(text: string, sampleRate: number): AssistantLineOut {
    const out = this.out.line(text, sampleRate);
    const sent: SentLine = { at: this.a.now(), samples: new Int16Array(0) };
    this.lines.push(sent);
    while (this.lines.length > 1 && this.lines[0]!.at + this.lines[0]!.samples.length / SAMPLE_RATE < sent.at - KEPT_SECONDS) this.lines.shift();
    return {
      push: (samples) => {
        const pcm = sampleRate === SAMPLE_RATE ? samples : this.a.voices.port.resample({ samples, sampleRate }, SAMPLE_RATE).samples;
        const joined = new Int16Array(sent.samples.length + pcm.length);
        joined.set(sent.samples);
        joined.set(pcm, sent.samples.length);
        sent.samples = joined;
        out.push(samples);
      },
      end: () => out.end(),
      cut: () => {
        sent.cutAt = this.a.now();
        out.cut();
      },
    };
  }

  /** A piece of the microphone's audio (16 kHz), from `at` on the call's clock: sent with the assistant's audio of the same moment. */
  hear(samples: Int16Array, at: number): void {
    const assistant = new Int16Array(samples.length);
    const from = Math.round(at * SAMPLE_RATE);
    for (const line of this.lines) {
      const start = Math.round(line.at * SAMPLE_RATE);
      const stop = Math.min(start + line.samples.length, line.cutAt === undefined ? Infinity : Math.round(line.cutAt * SAMPLE_RATE));
      const lo = Math.max(from, start);
      const hi = Math.min(from + samples.length, stop);
      if (hi > lo) assistant.set(line.samples.subarray(lo - start, hi - start), lo - from);
    }
    this.t.live(samples, assistant, at);
  }

  /**
   * ms from the end of the customer's speech, as the detector placed it since the last turn, to
   * the transcription; undefined when the detector had not closed such a span yet (then the call's
   * `transcriberLatency` stays a stand-in, marked simulated).
   */
  private latency(arrivedMs: number): number | undefined {
    const now = this.a.now();
    const span = this.a.timeline.of('vad').findLast((v) => v.end > this.lastTurn && v.end <= now);
    this.lastTurn = now;
    if (!span) return undefined;
    this.t.measured = true;
    return Math.max(0, Math.round((now - span.end) * 1000 - (performance.now() - arrivedMs)));
  }
}
