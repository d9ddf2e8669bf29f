// The platform's chunk plan for a custom voice: the assistant's text goes to the voice server in
// pieces, each at least `minCharacters` long and ending at one of `punctuationBoundaries`, so the
// first words can be spoken while the rest is still being made; `enabled: false` sends each line
// whole. The defaults are the reference's (30 characters; its example list of boundaries).
import type { Json } from '../../../messages/index.js';

/** The boundaries the reference lists as its example (every listed one but the closing parenthesis). */
const DEFAULT_BOUNDARIES = ['。', '，', '.', '!', '?', ';', '،', '۔', '।', '॥', '|', '||', ',', ':'];

/** The reference's default `minCharacters`. */
const DEFAULT_MIN = 30;

/** A voice's chunk plan, its defaults filled in. */
export interface ChunkPlan {
  enabled: boolean;
  minCharacters: number;
  boundaries: string[];
  /** The first piece's minimum, when it differs (the local stand-in voice's: a short first piece is made soon). */
  firstMinCharacters?: number;
}

/**
 * How the local stand-in voice cuts a line: as the platform's default plan, but its first piece
 * ends at the first boundary past 10 characters ("Certainly,"), so a line starts after a short
 * synthesis and the rest is made while it plays. The pieces depend on the text alone, so a line
 * sounds the same however and whenever it was made.
 */
export const STAND_IN_PLAN: ChunkPlan = { enabled: true, minCharacters: DEFAULT_MIN, boundaries: DEFAULT_BOUNDARIES, firstMinCharacters: 10 };

/** The chunk plan of a voice (`voice.chunkPlan`), with the reference's defaults. */
export function chunkPlanOf(voice: Json | undefined): ChunkPlan {
  const plan = (voice?.chunkPlan ?? {}) as Json;
  const min = Number(plan.minCharacters);
  const listed = Array.isArray(plan.punctuationBoundaries) ? plan.punctuationBoundaries.filter((b): b is string => typeof b === 'string' && b !== '') : [];
  return { enabled: plan.enabled !== false, minCharacters: Number.isFinite(min) && min >= 1 ? min : DEFAULT_MIN, boundaries: listed.length ? listed : DEFAULT_BOUNDARIES };
}

/** The pieces of `text` a voice server is asked for, in order (their concatenation is the text, trimmed). */
export function chunksOf(text: string, plan: ChunkPlan): string[] {
  const whole = text.trim();
  if (!plan.enabled || !whole) return whole ? [whole] : [];
  // Longest boundary first, so `||` is not taken for `|`.
  const marks = [...plan.boundaries].sort((a, b) => b.length - a.length);
  const chunks: string[] = [];
  let from = 0;
  for (let i = 0; i < whole.length; i++) {
    const mark = marks.find((m) => whole.startsWith(m, i));
    if (!mark) continue;
    const end = i + mark.length;
    i = end - 1;
    // A boundary counts where the text breaks after it (a space or the end), not inside "3.5".
    if (end < whole.length && !/\s/.test(whole[end] as string)) continue;
    const piece = whole.slice(from, end).trim();
    if (piece.length < (chunks.length ? plan.minCharacters : (plan.firstMinCharacters ?? plan.minCharacters))) continue;
    chunks.push(piece);
    from = end;
  }
  const rest = whole.slice(from).trim();
  if (rest) chunks.push(rest);
  return chunks;
}
