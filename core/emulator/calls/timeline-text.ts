// A call's audio timeline written out for a model to read: who spoke when, what was cut off and
// where, each silence, pause and key, each turn's latency, and a summary (interruptions, talking
// over, the longest silence, speech rates). A voice-mode simulation's structured outputs are
// extracted from it: it is the local stand-in for the audio the platform gives its extractor.
import type { TimelineData, TimelineEvent } from './audio/timeline.js';

/** Silences shorter than this between two lines are not worth a line of their own. */
const MIN_SILENCE = 0.3;

const t = (s: number): string => s.toFixed(2);
const who = (side: string): string => (side === 'customer' ? 'User' : 'AI');

/** One event as a line of text; undefined for what a reader does not need (the detector's spans, endpoint decisions). */
function lineOf(e: TimelineEvent): string | undefined {
  switch (e.type) {
    case 'speech':
      if (!e.cut) return `${t(e.at)}-${t(e.end)} ${who(e.side)}: ${e.text}`;
      return `${t(e.at)}-${t(e.end)} ${who(e.side)} (cut off at ${t(e.cut.at)}; only "${e.cut.heard}" was said of: ${e.text})`;
    case 'pause':
      return `${t(e.at)}-${t(e.end)} User pauses mid-sentence (${t(e.end - e.at)} s)`;
    case 'keys':
      return `${t(e.at)}-${t(e.end)} ${who(e.side)} presses keys ${e.digits}`;
    case 'interruption':
      return e.by === 'customer'
        ? `${t(e.at)} INTERRUPTION: the user interrupted the assistant, which stopped after "${e.heard}" (rule: ${e.rule})`
        : `${t(e.at)} INTERRUPTION: the assistant talked over the user, who had said "${e.heard}" (it did not stop: ${e.rule})`;
    case 'acknowledgement':
      return `${t(e.at)} User says "${e.text}" over the assistant, which carries on (an acknowledgement)`;
    case 'hook':
      return `${t(e.at)} hook ${e.on} fires (time ${e.count}): ${e.actions.join(', ')}`;
    case 'dropped':
      return `${t(e.at)} AI's reply is dropped, never said (the user spoke again first): ${e.text}`;
    case 'latency':
      return `  turn latency ${t(e.turnLatency / 1000)} s (endpointing ${t(e.endpointingLatency / 1000)} s, model ${t(e.modelLatency / 1000)} s, voice synthesis ${t(e.voiceLatency / 1000)} s)`;
    default:
      return undefined;
  }
}

/** What filled a stretch of the call: a side's speech or keys, or a mid-sentence pause (side `pause`: written as a pause, not a silence). */
type Sound = { at: number; end: number; side: string; words: number };

/** The silences between what was heard (speech and keys of either side), longest first where it matters. */
function silences(sounds: readonly Sound[], length: number): { at: number; end: number }[] {
  const out: { at: number; end: number }[] = [];
  let heardTo = 0;
  for (const s of [...sounds].sort((a, b) => a.at - b.at)) {
    if (s.at - heardTo >= MIN_SILENCE) out.push({ at: heardTo, end: s.at });
    heardTo = Math.max(heardTo, s.end);
  }
  if (length - heardTo >= MIN_SILENCE) out.push({ at: heardTo, end: length });
  return out;
}

/** Seconds both sides spoke at once. */
function overlapSeconds(sounds: readonly Sound[]): number {
  const user = sounds.filter((s) => s.side === 'customer');
  let total = 0;
  for (const a of sounds.filter((s) => s.side === 'assistant')) for (const u of user) total += Math.max(0, Math.min(a.end, u.end) - Math.max(a.at, u.at));
  return total;
}

function rate(sounds: readonly Sound[], side: string): string {
  const mine = sounds.filter((s) => s.side === side && s.words > 0);
  const seconds = mine.reduce((n, s) => n + (s.end - s.at), 0);
  return seconds > 0 ? `${(mine.reduce((n, s) => n + s.words, 0) / seconds).toFixed(1)} words/s` : 'no speech';
}

/** The timeline as text, one event a line in time order, with the silences between lines and a summary. */
export function timelineText(data: TimelineData): string {
  const events = [...data.events].sort((a, b) => a.at - b.at);
  const sounds: Sound[] = events.flatMap((e): Sound[] => {
    if (e.type === 'speech') return [{ at: e.at, end: e.end, side: e.side, words: e.cut ? e.cut.heard.split(/\s+/).filter(Boolean).length : e.words.length }];
    if (e.type === 'keys') return [{ at: e.at, end: e.end, side: e.side, words: 0 }];
    return e.type === 'pause' ? [{ at: e.at, end: e.end, side: 'pause', words: 0 }] : [];
  });
  const length = data.seconds ?? Math.max(0, ...sounds.map((s) => s.end));
  const gaps = silences(sounds, length);
  const rows: { at: number; text: string }[] = [];
  for (const e of events) {
    const text = lineOf(e);
    if (text) rows.push({ at: e.at, text });
  }
  for (const g of gaps) rows.push({ at: g.at, text: `${t(g.at)}-${t(g.end)} silence (${t(g.end - g.at)} s)` });
  rows.sort((a, b) => a.at - b.at);
  const cuts = events.filter((e) => e.type === 'interruption');
  const latencies = events.flatMap((e) => (e.type === 'latency' ? [e.turnLatency / 1000] : []));
  const longest = gaps.reduce((m, g) => Math.max(m, g.end - g.at), 0);
  const summary = [
    `call length ${t(length)} s`,
    `interruptions: ${cuts.filter((c) => c.by === 'customer').length} by the user, ${cuts.filter((c) => c.by === 'assistant').length} by the assistant`,
    `both speaking at once ${t(overlapSeconds(sounds))} s`,
    `longest silence ${t(longest)} s`,
    latencies.length ? `turn latency mean ${t(latencies.reduce((a, b) => a + b, 0) / latencies.length)} s, max ${t(Math.max(...latencies))} s` : 'no turn latency measured',
    `speech rate AI ${rate(sounds, 'assistant')}, User ${rate(sounds, 'customer')}`,
  ];
  return ['Audio timeline of the call (seconds from its start; written out from the call audio, in place of the audio itself):', ...rows.map((r) => r.text), `Summary: ${summary.join('; ')}.`].join(
    '\n',
  );
}
