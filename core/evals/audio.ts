// Structured outputs that judge what only audio carries (tone, interruptions, silences, latency,
// pronunciation). A chat-transport run has a transcript and no audio, so such an evaluation is
// skipped visibly there, and a run whose evaluations are all of this kind judges nothing.
import type { Json } from '../messages/index.js';
import { schemaAt } from './compare.js';

/** Words that make a structured output need audio, matched in its name, description and the described field. */
export const AUDIO_WORDS =
  /\b(audio|tone of voice|voice quality|sounds? (?:calm|angry|friendly|rushed)|pronunciation|pronounce[sd]?|accent|background noise|interrupt(?:s|ed|ions?)?|talk(?:s|ed|ing)? over|silences?|pauses?|latency|speech rate|speaking (?:speed|rate|pace))\b/i;

/** Why this output (at this path) can only be judged from audio; undefined when a transcript is enough. */
export function needsAudio(output: Json | undefined, path?: string): string | undefined {
  if (!output) return undefined;
  const field = schemaAt(output.schema as Json | undefined, path);
  const texts = [output.name, output.description, field?.description, path].filter((t): t is string => typeof t === 'string');
  for (const text of texts) {
    const m = AUDIO_WORDS.exec(text);
    if (m) return `it judges ${m[0].toLowerCase()}, which only audio carries; a chat run has the transcript alone`;
  }
  return undefined;
}
