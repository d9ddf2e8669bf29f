// A call's recording played with its transcript following it (the line being said highlighted,
// a click on a line plays from there) and its turn timeline: both sides' speech, and marks for
// interruptions, pauses, idle messages (hook lines) and keys, each a button that plays from it,
// and the exchanges with the developer's own voice stack (Exchanges.tsx) on a lane and in rows.
// A call without sound says so, and how to give calls sound.
import { recordingPath, timelinePath } from '#core/emulator/control/paths';
import type { SpeechEvent, TimelineData, TimelineEvent } from '#core/emulator/calls/audio/timeline';
import { useEffect, useRef, useState } from 'react';
import { api } from './api';
import { ExchangeLane, ExchangeRows, exchangesOf } from './Exchanges';

/** A mark on the turn timeline: where, what kind, and what it says. */
interface Mark {
  at: number;
  kind: 'interruption' | 'pause' | 'idle' | 'keys';
  label: string;
}

/** The marks of a timeline, in order. */
export function marksOf(events: readonly TimelineEvent[]): Mark[] {
  const marks: Mark[] = [];
  for (const e of events) {
    if (e.type === 'interruption')
      marks.push({ at: e.at, kind: 'interruption', label: e.by === 'customer' ? `The customer interrupted the assistant (${e.rule})` : `The assistant talked over the customer (${e.rule})` });
    else if (e.type === 'pause') marks.push({ at: e.at, kind: 'pause', label: `The customer paused ${(e.end - e.at).toFixed(1)} s` });
    else if (e.type === 'speech' && e.source === 'hook') marks.push({ at: e.at, kind: 'idle', label: `Idle message: ${e.text}` });
    else if (e.type === 'keys') marks.push({ at: e.at, kind: 'keys', label: `${e.side === 'customer' ? 'The customer pressed' : 'The assistant pressed'} ${e.digits}` });
  }
  return marks.sort((a, b) => a.at - b.at);
}

/** The recording, the transcript that follows it and the turn timeline of an ended call; `audioOff`: why it has no sound. */
export function Recording({ id, audioOff }: { id: string; audioOff: string | undefined }) {
  const [data, setData] = useState<TimelineData | null | undefined>(undefined);
  const [now, setNow] = useState(0);
  const player = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    api<{ timeline: TimelineData | null }>(timelinePath(id)).then(
      (r) => setData(r.timeline),
      () => setData(null),
    );
  }, [id]);
  const seek = (at: number): void => {
    const audio = player.current;
    if (!audio) return;
    audio.currentTime = at;
    void audio.play().catch(() => undefined);
  };
  const speech = (data?.events ?? []).filter((e): e is SpeechEvent => e.type === 'speech');
  const exchanges = exchangesOf(data?.events ?? []);
  const seconds = Math.max(data?.seconds ?? 0, ...speech.map((e) => e.end), 0.001);
  const pct = (t: number): string => `${Math.min(100, (t / seconds) * 100).toFixed(2)}%`;
  return (
    <div className="recording">
      <audio ref={player} controls preload="none" src={recordingPath(id)} aria-label="Recording of the call" onTimeUpdate={(e) => setNow(e.currentTarget.currentTime)} />
      {data === null && (
        <p className="note" role="note">
          {audioOff ?? 'Audio is off for this call: it ran on the text timeline, so its recording is stand-in tones.'} Run <code>voice dev</code> with voice-agent-audio installed (and without
          --no-audio) to hear calls and follow them here.
        </p>
      )}
      {data && (
        <>
          <ol className="transcript follows" aria-label="Transcript following the recording">
            {speech.map((e, i) => (
              <li key={i} className={`${e.side} ${now >= e.at && now < e.end ? 'playing' : ''}`} aria-current={now >= e.at && now < e.end ? 'true' : undefined}>
                <button type="button" className="seek" onClick={() => seek(e.at)} title={`Play from ${e.at.toFixed(1)} s`}>
                  {e.at.toFixed(1)} s
                </button>
                <span className="who">{e.side === 'assistant' ? 'Assistant' : 'Customer'}</span>
                <span className="said">
                  {e.cut ? e.cut.heard : e.text}
                  {e.cut ? ' (cut off)' : ''}
                </span>
              </li>
            ))}
          </ol>
          <div className="turns" role="group" aria-label="Turn timeline">
            {(['customer', 'assistant'] as const).map((side) => (
              <div key={side} className={`lane ${side}`} aria-label={side === 'assistant' ? 'Assistant speaking' : 'Customer speaking'}>
                {speech
                  .filter((e) => e.side === side)
                  .map((e, i) => (
                    <span key={i} className="span" style={{ left: pct(e.at), width: pct(e.end - e.at) }} title={e.text} />
                  ))}
              </div>
            ))}
            {marksOf(data.events).map((m, i) => (
              <button key={i} type="button" className={`mark ${m.kind}`} style={{ left: pct(m.at) }} title={m.label} aria-label={`${m.label} at ${m.at.toFixed(1)} s`} onClick={() => seek(m.at)} />
            ))}
            <ExchangeLane exchanges={exchanges} pct={pct} seek={seek} />
            <span className="playhead" style={{ left: pct(now) }} aria-hidden="true" />
          </div>
          <ExchangeRows exchanges={exchanges} seek={seek} />
        </>
      )}
    </div>
  );
}
