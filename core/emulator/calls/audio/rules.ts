// The platform's timing rules as pure decisions on a call's audio: when a customer's turn is over
// (endpointing: custom rules first, then the transcript's last character), and whether the
// customer's speech over the assistant stops it (stopSpeakingPlan). Times are seconds on the call's
// timeline; the transcript is the customer's line as written, so its punctuation decides.
import type { StartPlan, StopPlan } from './plans.js';
import { normalise } from './plans.js';
import type { TimelineWord } from './timeline.js';

/** How long to wait after the customer's speech stops before their turn is over, and which rule said so. */
export interface Endpointing {
  seconds: number;
  rule: string;
}

/** The endpointing wait for `transcript` (the customer's words so far) after the assistant said `lastAssistant`. */
export function endpointingOf(transcript: string, lastAssistant: string, plan: StartPlan): Endpointing {
  for (const [i, r] of plan.rules.entries()) {
    const matches =
      (r.type !== 'customer' || (r.customer?.test(transcript) ?? false)) &&
      (r.type !== 'assistant' || (r.assistant?.test(lastAssistant) ?? false)) &&
      (r.type !== 'both' || Boolean(r.assistant?.test(lastAssistant) && r.customer?.test(transcript)));
    if (matches) return { seconds: r.timeoutSeconds, rule: `customEndpointingRules[${i}]` };
  }
  const text = transcript.trim();
  // A number read in chunks is often punctuated before it is finished: the number rule comes first.
  if (/\d[.!?,;:]*$/.test(text)) return { seconds: plan.onNumberSeconds, rule: 'onNumberSeconds' };
  if (/[.!?]$/.test(text)) return { seconds: plan.onPunctuationSeconds, rule: 'onPunctuationSeconds' };
  return { seconds: plan.onNoPunctuationSeconds, rule: 'onNoPunctuationSeconds' };
}

/** A span of speech the detector heard, in seconds on the call's timeline. */
export interface Span {
  start: number;
  end: number;
}

/** One customer turn cut out of a line by endpointing. */
export interface TurnPart {
  words: TimelineWord[];
  text: string;
  speechStart: number;
  speechEnd: number;
  /** When the turn was judged over (`speechEnd` + the rule's wait). */
  endpointAt: number;
  rule: string;
  seconds: number;
}

/** The index of the span each word belongs to: the one holding its middle, else the nearest. */
function spanOfWords(words: readonly TimelineWord[], spans: readonly Span[]): number[] {
  return words.map((w) => {
    const mid = (w.start + w.end) / 2;
    let best = 0;
    let distance = Infinity;
    spans.forEach((s, i) => {
      const d = mid < s.start ? s.start - mid : mid > s.end ? mid - s.end : 0;
      if (d < distance) [best, distance] = [i, d];
    });
    return best;
  });
}

/**
 * The turns a customer's line makes: after each span of speech the detector heard, the endpointing
 * wait for the words so far (`decide`: the local rules unless the developer's endpointing server
 * decides); speech that starts again within it stays in the same turn. A span with
 * no words (noise the detector took for speech) gives no turn of its own.
 */
export async function turnsOf(
  words: readonly TimelineWord[],
  spans: readonly Span[],
  lastAssistant: string,
  plan: StartPlan,
  decide: (transcript: string) => Endpointing | Promise<Endpointing> = (text) => endpointingOf(text, lastAssistant, plan),
): Promise<TurnPart[]> {
  if (!spans.length) return [];
  const owner = spanOfWords(words, spans);
  const parts: TurnPart[] = [];
  let first = 0;
  for (const [i, span] of spans.entries()) {
    const mine = words.filter((_, k) => (owner[k] as number) >= first && (owner[k] as number) <= i);
    const text = mine.map((w) => w.word).join(' ');
    const { seconds, rule } = await decide(text);
    const next = spans[i + 1];
    if (next && next.start - span.end < seconds) continue;
    if (mine.length) parts.push({ words: mine, text, speechStart: (spans[first] as Span).start, speechEnd: span.end, endpointAt: span.end + seconds, rule, seconds });
    first = i + 1;
  }
  return parts;
}

/** What the customer's speech over the assistant does: nothing (a backchannel), stop it at `at`, or nothing because the plan says it may not. */
export type StopDecision = { kind: 'acknowledgement' } | { kind: 'cut'; at: number; rule: string } | { kind: 'over'; rule: string };

/** The customer's speech over the assistant: its words and the detector's span (seconds on the call's timeline). */
export interface Overlap {
  text: string;
  words: readonly TimelineWord[];
  speech?: Span;
}

/** Where a phrase of `phrases` is first said in `words`: the end of its last word. */
function phraseEnd(words: readonly TimelineWord[], phrases: readonly string[]): number | undefined {
  const said = words.map((w) => normalise(w.word));
  let best: number | undefined;
  for (const phrase of phrases) {
    const tokens = phrase.split(' ');
    for (let i = 0; i + tokens.length <= said.length; i++) {
      if (tokens.every((t, k) => said[i + k] === t)) {
        const end = (words[i + tokens.length - 1] as TimelineWord).end;
        if (best === undefined || end < best) best = end;
        break;
      }
    }
  }
  return best;
}

/**
 * Whether the customer's speech stops the assistant (`stopSpeakingPlan`): an acknowledgement phrase
 * never does; an interruption phrase does once said; otherwise `voiceSeconds` of detected speech
 * (with `numWords` 0) or `numWords` words. The first message is never cut unless `interruptible`.
 */
export function stopDecision(overlap: Overlap, plan: StopPlan, interruptible: boolean): StopDecision {
  const said = normalise(overlap.text);
  if (plan.acknowledgementPhrases.includes(said)) return { kind: 'acknowledgement' };
  if (!interruptible) return { kind: 'over', rule: 'firstMessageInterruptionsEnabled is off' };
  const found: { at: number; rule: string }[] = [];
  const phrase = phraseEnd(overlap.words, plan.interruptionPhrases);
  if (phrase !== undefined) found.push({ at: phrase, rule: 'interruptionPhrases' });
  if (plan.numWords === 0) {
    const s = overlap.speech;
    if (s && s.end - s.start >= plan.voiceSeconds) found.push({ at: s.start + plan.voiceSeconds, rule: 'voiceSeconds' });
  } else {
    const spoken = overlap.words.filter((w) => normalise(w.word));
    const nth = spoken[Math.ceil(plan.numWords) - 1];
    if (nth) found.push({ at: nth.end, rule: 'numWords' });
  }
  const first = found.sort((a, b) => a.at - b.at)[0];
  if (first) return { kind: 'cut', ...first };
  return { kind: 'over', rule: plan.numWords === 0 ? `speech shorter than voiceSeconds (${plan.voiceSeconds} s)` : `fewer than numWords (${plan.numWords}) words` };
}
