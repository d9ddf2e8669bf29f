// What the live call shows in words (not in the spec), loaded with it (CallMeter.tsx).

/** The live call's texts. */
export const liveText = {
  speaking: 'Assistant speaking',
  listening: 'Listening',
  ended: (elapsed: string) => `Call ended after ${elapsed}`,
  timerLabel: 'Call time',
  micLabel: 'Mic',
  micMeterLabel: 'Microphone level',
} as const;

/** Milliseconds as a call clock: `0:07`, `12:34`, `1:02:03`. */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}
