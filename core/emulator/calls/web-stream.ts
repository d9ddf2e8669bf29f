// The assistant's audio streamed to a browser in a web call: each line's samples go out in 100 ms
// binary frames a little ahead of when they are heard (the page plays them back to back), paced by
// the call's clock, so a cut stops the stream where the line was cut and nothing more is heard.
import type { AssistantLineOut, AssistantOut } from './audio/engine.js';
import type { BrowserAudioLink } from './browser.js';

/** Samples per frame: 100 ms at 16 kHz. */
const FRAME_SECONDS = 0.1;
/** How far ahead of the call's clock audio is sent (the page's buffer against network jitter). */
const LEAD_SECONDS = 0.3;
const TICK_MS = 40;

/** Streams the assistant's lines to a browser; `now` is the call's clock in seconds. */
export class BrowserStream implements AssistantOut {
  /** Muted (`mute-assistant`): lines are said on the call but not sent. */
  muted = false;
  private current: { stop(): void } | undefined;

  constructor(
    private readonly link: BrowserAudioLink,
    private readonly now: () => number,
    /** Stops what the page still has buffered. */
    private readonly silence: () => void,
  ) {}

  line(_text: string, sampleRate: number): AssistantLineOut {
    this.current?.stop();
    const start = this.now();
    const frame = Math.round(sampleRate * FRAME_SECONDS);
    let pending: Int16Array = new Int16Array(0);
    let sent = 0;
    let ended = false;
    const tick = () => {
      const ahead = Math.round((this.now() - start + LEAD_SECONDS) * sampleRate);
      // Whole frames only, but for the line's last piece.
      const due = Math.min(pending.length, ahead - (ahead % frame));
      while (sent < due) {
        const to = Math.min(due, sent + frame);
        if (!this.muted) this.link.send(pending.subarray(sent, to));
        sent = to;
      }
      if (ended && sent >= pending.length) stop();
    };
    const timer = setInterval(tick, TICK_MS);
    const stop = () => {
      clearInterval(timer);
      if (this.current === handle) this.current = undefined;
    };
    const handle = { stop };
    this.current = handle;
    return {
      push: (samples) => {
        const joined = new Int16Array(pending.length + samples.length);
        joined.set(pending);
        joined.set(samples, pending.length);
        pending = joined;
        tick();
      },
      end: () => {
        ended = true;
        tick();
      },
      cut: () => {
        stop();
        this.silence();
      },
    };
  }
}
