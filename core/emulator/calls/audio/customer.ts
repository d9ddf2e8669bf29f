// The customer's side of a call's audio loop: a line (already under way when it was said over the
// assistant) is placed on the timeline, the voice activity detector's spans and the endpointing
// rules cut it into turns, and each turn is heard (speech messages, then the user message once it
// was judged over) and answered. The rest of a line a turn was cut from is where the customer
// starts again: a reply that would start after it is dropped, one under way may be cut by it.
import { startPlanOf } from './plans.js';
import type { TurnPart } from './rules.js';
import { endpointingOf, turnsOf } from './rules.js';
import { customEndpointing } from './custom-endpointing.js';
import { lineEnded, lineStarted } from '../speech.js';
import type { CallAudio } from './engine.js';
import type { Fragments } from './utterance.js';
import { lineText, placedSpans, placedWords, prepare } from './utterance.js';

/** The customer says a line: each turn endpointing makes of it is heard, then answered by `reply` (`last`: the line's last turn). */
export async function customerSays(a: CallAudio, line: string | Fragments, reply: (heard: string, last: boolean) => Promise<boolean>): Promise<boolean> {
  const text = lineText(line);
  const started = a.placed?.u.text === text ? a.placed : undefined;
  const placed = started ?? a.place(await prepare(line, a.voices, a.noise), a.now());
  if (placed.acknowledgement) {
    a.placed = undefined;
    return a.until(placed.at + placed.u.seconds);
  }
  const words = placedWords(placed.u, placed.at);
  const parts = await turnsOf(words, placedSpans(placed.u, placed.at), a.lastAssistant, startPlanOf(a.s.assistant), a.transcriber ? undefined : customEndpointing(a));
  if (!parts.length) {
    a.s.log(`The voice activity detector heard no speech in the customer's line ("${text}"): nothing was transcribed`, 'WARN');
    const ok = await a.until(placed.at + placed.u.seconds);
    a.placed = undefined;
    return ok;
  }
  for (const [k, part] of parts.entries()) {
    const next = parts[k + 1];
    const words = await heard(a, part);
    if (words === undefined) return false;
    a.resume = next
      ? {
          at: next.speechStart,
          overlap: {
            text: parts
              .slice(k + 1)
              .map((p) => p.text)
              .join(' '),
            words: parts.slice(k + 1).flatMap((p) => p.words),
            speech: { start: next.speechStart, end: next.speechEnd },
          },
        }
      : undefined;
    if (!next) {
      a.placed = undefined;
      if (a.armed) a.armed.ready = true;
    }
    if (!(await reply(words, !next))) return false;
  }
  a.resume = undefined;
  return !a.s.ended;
}

/**
 * One turn of the customer's: speech messages as it is said, then the user message once endpointing
 * judged it over; what was heard (undefined once the call ended). With the developer's transcriber,
 * its transcription is the turn, and endpointing waits from when it arrived by its rules.
 */
async function heard(a: CallAudio, part: TurnPart): Promise<string | undefined> {
  const s = a.s;
  if (!(await a.until(part.speechStart))) return undefined;
  const t = a.transcriber;
  const begun = lineStarted(s, 'user', t ? '' : part.text, false);
  let turn = part;
  let transcriberMs = 0;
  if (t) {
    const got = await t.turn(part);
    if (!got) return undefined;
    const { seconds, rule } = await (customEndpointing(a) ?? ((text: string) => endpointingOf(text, a.lastAssistant, startPlanOf(s.assistant))))(got.text);
    turn = { ...part, text: got.text, seconds, rule, endpointAt: Math.max(a.now(), part.speechEnd) + seconds };
    transcriberMs = got.latencyMs;
  }
  if (!(await a.until(turn.endpointAt))) return undefined;
  a.timeline.add({ type: 'endpoint', at: turn.endpointAt, speechEnd: turn.speechEnd, rule: turn.rule, seconds: turn.seconds, transcript: turn.text });
  lineEnded(s, 'user', turn.text, begun, turn.speechEnd);
  s.hooks?.customerSpoke();
  a.afterCustomer(turn.speechEnd, turn.seconds, transcriberMs);
  return turn.text;
}
