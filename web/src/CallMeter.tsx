// The live call at a glance, loaded with the first call (nothing of it in the first load): the
// time since it connected, whether the assistant is speaking or listening (speech-start and
// speech-end), and the microphone's level (local-volume-level). The state in words goes to the
// page's status region (App.tsx), which screen readers announce; the timer and level are visual.
import { useEffect, useState } from 'react';
import type { WebCall } from '#core/webcall/webcall';
import { clockText, liveText } from './live-text.js';

/** What the meter is given: the call's client, whether it is live, and where its state in words goes. */
export interface MeterProps {
  client: WebCall;
  active: boolean;
  onStatus(status: string): void;
}

/** The microphone level (RMS) that fills the bar: speech at arm's length reads about half of it. */
const MIC_FULL = 0.15;

/** How often the timer redraws (it shows whole seconds). */
const TICK_MS = 250;

/** The timer, the speaking/listening state and the microphone level of a live call. */
export default function CallMeter({ client, active, onStatus }: MeterProps) {
  const [speaking, setSpeaking] = useState(false);
  const [level, setLevel] = useState(0);
  // Milliseconds since the call connected (each call mounts this afresh).
  const [elapsedMs, setElapsedMs] = useState(0);

  // A new call clears what the last one left ("Call ended after ...").
  useEffect(() => onStatus(''), [client, onStatus]);

  useEffect(() => {
    const start = () => setSpeaking(true);
    const end = () => setSpeaking(false);
    const mic = (value: number) => setLevel(Math.max(0, Math.min(1, value / MIC_FULL)));
    client.on('speech-start', start);
    client.on('speech-end', end);
    client.on('local-volume-level', mic);
    return () => {
      client.off('speech-start', start);
      client.off('speech-end', end);
      client.off('local-volume-level', mic);
    };
  }, [client]);

  useEffect(() => {
    if (!active) return;
    const began = Date.now();
    // The client starts the microphone observer at connection when someone listens; a meter that
    // mounted later starts it itself (it restarts harmlessly).
    // A meter never takes the page down: a client without the observer (another call client) just shows no level.
    try {
      if (!client.isLocalAudioLevelObserverRunning()) void client.startLocalAudioLevelObserver(100).catch(() => undefined);
    } catch {
      // no microphone level from this client
    }
    const timer = setInterval(() => setElapsedMs(Date.now() - began), TICK_MS);
    return () => {
      clearInterval(timer);
      onStatus(liveText.ended(clockText(Date.now() - began)));
    };
  }, [active, client, onStatus]);

  useEffect(() => {
    if (active) onStatus(speaking ? liveText.speaking : liveText.listening);
  }, [active, speaking, onStatus]);

  if (!active) return null;
  const elapsed = clockText(elapsedMs);
  return (
    <>
      <span className="timer" role="timer" aria-label={liveText.timerLabel}>
        <span className="dot" aria-hidden="true" />
        {elapsed}
      </span>
      <span className={speaking ? 'who speaking' : 'who listening'} aria-hidden="true" />
      <span className="mic">
        <span aria-hidden="true">{liveText.micLabel}</span>
        <span className="bar" role="meter" aria-label={liveText.micMeterLabel} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)}>
          <span style={{ transform: `scaleX(${level})` }} />
        </span>
      </span>
    </>
  );
}
