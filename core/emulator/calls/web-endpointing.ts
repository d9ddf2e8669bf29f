// The developer's endpointing (`startSpeakingPlan.smartEndpointingPlan.provider:
// custom-endpointing-model`) in a web call with sound: each customer transcript (the developer's
// transcriber's, or the words the page recognised) is asked of their server with the turn's words
// so far, through the phone calls' own request and fallback (audio/custom-endpointing.ts). The turn
// is over once the answer's timeoutSeconds have passed on the call's clock with no new transcript;
// a new one joins the turn, is asked about again, and the wait starts over.
import type { CallAudio } from './audio/engine.js';
import { customEndpointing } from './audio/custom-endpointing.js';
import type { Endpointing } from './audio/rules.js';

/** A customer turn the developer's endpointing judged over. */
export interface HeldTurn {
  /** The turn's transcripts, joined. */
  text: string;
  /** When its last transcript came (seconds on the call's clock): the wait is counted from there. */
  speechEnd: number;
  endpointing: Endpointing;
  /** The transcriber's latency for the last transcript (undefined: not measured). */
  transcriberMs: number | undefined;
}

/**
 * Holds a web call's transcripts as the developer's endpointing says, then hands the turn to
 * `over`; the returned function is false for a transcript it does not hold (the assistant asks no
 * endpointing server: the transcript is a turn at once, as before).
 */
export function webEndpointing(a: CallAudio, over: (turn: HeldTurn) => void): (text: string, transcriberMs?: number) => boolean {
  let words: string[] = [];
  let latest = 0;
  return (text, transcriberMs) => {
    const decide = customEndpointing(a);
    if (!decide) return false;
    words.push(text);
    const mine = ++latest;
    const transcript = words.join(' ');
    const speechEnd = a.now();
    decide(transcript)
      .then(async (endpointing) => {
        if (mine !== latest || !(await a.until(speechEnd + endpointing.seconds)) || mine !== latest) return;
        words = [];
        over({ text: transcript, speechEnd, endpointing, transcriberMs });
      })
      .catch((err: unknown) => a.s.log(`Custom endpointing failed: ${(err as Error).message}`, 'ERROR'));
    return true;
  };
}
