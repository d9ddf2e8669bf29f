// A line's speech as its chunks are made. The stand-in voice makes a line in pieces (cut by
// stack/chunks.ts), so the line can start once its first piece is made while the others are made
// on the synthesizer's other thread. Joined piece after piece, the words and samples are exactly
// those of the whole line (the same arithmetic as `joined`): a line's timeline and recording do
// not depend on whether it was said as it was made or made whole first.
import type { SpeechLike, TimedWord } from './port.js';

/** The pieces' speech said one after another, as the text's. */
export function joined(text: string, parts: readonly SpeechLike[]): SpeechLike {
  const [first] = parts;
  if (!first || parts.length === 1) return { ...(first as SpeechLike), text };
  const samples = new Int16Array(parts.reduce((n, p) => n + p.samples.length, 0));
  const words: TimedWord[] = [];
  let at = 0;
  for (const p of parts) {
    words.push(...offsetWords(p, at));
    samples.set(p.samples, at);
    at += p.samples.length;
  }
  return { ...first, text, samples, duration: samples.length / first.sampleRate, words };
}

/** A piece's words moved to where it starts in the line (`at`: samples before it). */
function offsetWords(p: SpeechLike, at: number): TimedWord[] {
  const offset = at / p.sampleRate;
  return p.words.map((w) => ({ word: w.word, start: w.start + offset, end: w.end + offset }));
}

/** A piece added to a line: its samples and its words, timed from the line's start. */
export interface Piece {
  samples: Int16Array;
  words: TimedWord[];
}

/** An assistant line's speech as its pieces come: the audio and words known so far, timed from the line's start. */
export class LineStream {
  private made = 0;
  /** Whether a piece never came (a voice server failed): the line stopped before its text's end. */
  stopped = false;
  private at = 0;
  private readonly parts: Int16Array[] = [];
  /** The words known so far. */
  readonly words: TimedWord[] = [];

  private constructor(
    readonly text: string,
    private readonly pieces: readonly Promise<SpeechLike | undefined>[],
    readonly sampleRate: number,
  ) {}

  /** The line once its first piece is made (`pieces` in order, the first made; a later one undefined: the line stops before it). */
  static async start(text: string, pieces: readonly [Promise<SpeechLike>, ...Promise<SpeechLike | undefined>[]]): Promise<LineStream> {
    const first = await pieces[0];
    const line = new LineStream(text, pieces, first.sampleRate);
    await line.next();
    return line;
  }

  /** Seconds of audio known so far. */
  get seconds(): number {
    return this.at / this.sampleRate;
  }

  /** Whether every piece is known. */
  get complete(): boolean {
    return this.made === this.pieces.length;
  }

  /** The samples known so far, as one array. */
  samples(): Int16Array {
    const out = new Int16Array(this.at);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /** Waits for the next piece and adds it (undefined once complete). */
  async next(): Promise<Piece | undefined> {
    if (this.complete) return undefined;
    const p = await this.pieces[this.made];
    if (!p) {
      this.made = this.pieces.length;
      this.stopped = true;
      return undefined;
    }
    const piece = { samples: p.samples, words: offsetWords(p, this.at) };
    this.made++;
    this.at += p.samples.length;
    this.parts.push(p.samples);
    this.words.push(...piece.words);
    return piece;
  }
}
