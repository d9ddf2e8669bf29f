// The call's exchanges with the developer's own voice stack, from its timeline: each voice request
// (the text, the audio's length, the time to its first byte), each transcription (the frames sent
// and the messages the transcriber answered), each endpointing answer (its timeout) and each
// knowledge-base answer (its documents). They are marks on a lane of the turn timeline (a hover
// says what happened, a click plays from there) and rows under it whose details open on a click.
import type { TimelineEvent } from '#core/emulator/calls/audio/timeline';

/** One exchange with the developer's stack: when, which part, a one-line summary, and its details. */
export interface Exchange {
  at: number;
  kind: 'voice' | 'transcriber' | 'endpointing' | 'knowledge-base';
  summary: string;
  details: string[];
  failed?: string;
}

const NAMES: Record<Exchange['kind'], string> = { voice: 'Voice', transcriber: 'Transcriber', endpointing: 'Endpointing', 'knowledge-base': 'Knowledge base' };
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The exchanges a timeline holds, in order (an empty list for a call that used none of the developer's servers). */
export function exchangesOf(events: readonly TimelineEvent[]): Exchange[] {
  const out: Exchange[] = [];
  for (const e of events) {
    if (e.type === 'voice')
      out.push({
        at: e.at,
        kind: 'voice',
        summary: `"${e.text}": ${e.seconds.toFixed(2)} s of audio, first byte after ${e.firstByteMs} ms`,
        details: [`${e.url}`, `${plural(e.chunks, 'voice-request')} (the chunk plan's pieces)`],
      });
    else if (e.type === 'transcriber')
      out.push({
        at: e.at,
        kind: 'transcriber',
        summary: `heard "${e.text}"${e.frames === undefined ? '' : ` from ${plural(e.frames, 'frame')}`}${e.latencyMs === undefined ? '' : `, ${e.latencyMs} ms after the audio ended`}`,
        details: [e.url, ...(e.written === undefined ? [] : [`The customer's line as written: "${e.written}"`]), ...(e.messages ?? []).map((m) => `Channel ${m.channel}: "${m.text}"`)],
      });
    else if (e.type === 'endpointing')
      out.push({
        at: e.at,
        kind: 'endpointing',
        summary: e.failed ? `failed: the local plan held the turn ${e.timeoutSeconds} s` : `hold the turn ${e.timeoutSeconds} s after "${e.transcript}"`,
        details: [...(e.url ? [e.url] : []), `Transcript: "${e.transcript}"`],
        ...(e.failed ? { failed: e.failed } : {}),
      });
    else if (e.type === 'knowledge-base')
      out.push({
        at: e.at,
        kind: 'knowledge-base',
        summary: e.failed
          ? 'failed: the turn went on without documents'
          : e.say !== undefined
            ? `a message said instead of the model's answer: "${e.say}"`
            : `${plural(e.documents.length, 'document')} for the model`,
        details: [...(e.url ? [e.url] : []), ...e.documents.map((d, i) => `[${i + 1}]${d.similarity === undefined ? '' : ` similarity ${d.similarity}`}: ${d.content}`)],
        ...(e.failed ? { failed: e.failed } : {}),
      });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** What a mark or a row says of an exchange, for a hover and a screen reader. */
export function labelOf(x: Exchange): string {
  return `${NAMES[x.kind]}: ${x.summary}`;
}

/**
 * The marks of the exchanges, a lane of the turn timeline (`pct` places a time, `seek` plays from
 * it): a hover names the exchange and a click plays from it. Exchanges close together sit closer
 * than a finger's width, so the lane is for the pointer only; the rows below are its accessible
 * twin (each a button that plays from it, with its details).
 */
export function ExchangeLane({ exchanges, pct, seek }: { exchanges: readonly Exchange[]; pct: (t: number) => string; seek: (at: number) => void }) {
  if (!exchanges.length) return null;
  return (
    <div className="lane stack" aria-hidden="true">
      {exchanges.map((x, i) => (
        <span key={i} className={`mark exchange ${x.kind}${x.failed ? ' failed' : ''}`} style={{ left: pct(x.at) }} title={`${labelOf(x)} (${x.at.toFixed(1)} s)`} onClick={() => seek(x.at)} />
      ))}
    </div>
  );
}

/** The exchanges as rows: when (a button that plays from there), which part, the summary, and the details on a click. */
export function ExchangeRows({ exchanges, seek }: { exchanges: readonly Exchange[]; seek: (at: number) => void }) {
  if (!exchanges.length) return null;
  return (
    <ol className="exchanges" aria-label="Voice stack exchanges">
      {exchanges.map((x, i) => (
        <li key={i} className={`${x.kind}${x.failed ? ' failed' : ''}`}>
          <button type="button" className="seek" onClick={() => seek(x.at)} title={`Play from ${x.at.toFixed(1)} s`}>
            {x.at.toFixed(1)} s
          </button>
          <details>
            <summary>
              <span className="who">{NAMES[x.kind]}</span> {x.summary}
            </summary>
            <ul>
              {x.failed && <li className="fail">{x.failed}</li>}
              {x.details.map((d, k) => (
                <li key={k}>{d}</li>
              ))}
            </ul>
          </details>
        </li>
      ))}
    </ol>
  );
}
