// A web call's microphone audio, kept for its recording: unlike the simulated customer's lines it
// cannot be synthesized again from the timeline, so its samples are kept in memory (a few calls,
// ten minutes each; not in the data file, so a restarted `voice dev` has the assistant's side only).

/** The microphone of one call: its samples, from `at` seconds after the call was answered. */
export interface KeptMicrophone {
  at: number;
  sampleRate: number;
  samples: Int16Array;
}

/** Calls whose microphone is kept; the oldest go first. */
const KEPT_CALLS = 8;
/** Seconds of microphone kept per call. */
export const KEPT_SECONDS = 600;

const kept = new Map<string, KeptMicrophone>();

/** Keeps a call's microphone audio for its recording. */
export function keepMicrophone(callId: string, mic: KeptMicrophone): void {
  kept.delete(callId);
  kept.set(callId, mic);
  for (const id of kept.keys()) if (kept.size > KEPT_CALLS) kept.delete(id);
}

/** The microphone audio kept for a call, if any. */
export function microphoneOf(callId: string): KeptMicrophone | undefined {
  return kept.get(callId);
}

/** Forgets a call's microphone (the call left the store). */
export function forgetMicrophone(callId: string): void {
  kept.delete(callId);
}
