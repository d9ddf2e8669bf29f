// Lines said on a live call (`voice call say`, the inspector) and the silences between the
// customer's turns. A line said while the assistant speaks is said over it (with sound); any other
// line or keys become the customer's next turn, even mid-pause. While the call waits for the
// customer, the assistant's `customer.speech.timeout` hooks fire when they are due. The first line
// said from outside makes the call the developer's: the scenario's customer says nothing more.
import type { LiveLine } from './audio/engine.js';
import type { CallSession } from './session.js';

export type { LiveLine } from './audio/engine.js';

/** What handles a line said live: the customer's text or keys; false once the call ended. */
export type LiveHandler = (line: LiveLine) => Promise<boolean>;

/** Seconds without a customer line before the platform ends a call as `silence-timed-out` (its default). */
export const SILENCE_SECONDS = 30;

/** Lines said on the live call, handed to the conversation at its next pause. */
export class LiveLines {
  private readonly lines: LiveLine[] = [];
  // Cuts a pause short when a line is said; one serves every pause until it fires.
  private wake = new AbortController();
  /** Lines said from outside so far (queued or said over the assistant). */
  private heard = 0;
  /** A line was said from outside: the scripted customer has stopped. */
  taken = false;

  constructor(private readonly s: CallSession) {
    s.hear = (line) => {
      if (s.ended) return false;
      if (!this.taken) s.log('You spoke on the call, so it is yours now: the scripted customer says nothing more', 'INFO');
      this.taken = true;
      this.heard++;
      const over = line.afterWords !== undefined ? { afterWords: line.afterWords } : line.afterSeconds !== undefined ? { afterSeconds: line.afterSeconds } : undefined;
      if (line.text !== undefined && !line.dtmf && s.audio?.sayOver(line.text, over)) return true;
      this.push(line);
      return true;
    };
    if (s.audio) s.audio.lines = this;
  }

  /** Queues a line for the next pause (and cuts the pause under way short). */
  push(line: LiveLine): void {
    this.lines.push(line);
    this.wake.abort();
  }

  /**
   * Waits `seconds` of the call's time, handing each line said meanwhile to `handle` as it comes and
   * firing due silence hooks; false once the call ended. Once the call is the developer's, a
   * scenario's pause ends at once (the conversation goes on in `yours()`); `untilLine` waits for
   * their next line instead.
   */
  async pause(seconds: number, handle: LiveHandler, untilLine = false): Promise<boolean> {
    const { s } = this;
    const end = s.secondsNow() + seconds;
    for (;;) {
      let handled = false;
      for (let line = this.lines.shift(); line !== undefined; line = this.lines.shift()) {
        handled = true;
        if (!(await handle(line))) return false;
      }
      if (this.taken && (!untilLine || handled)) return !s.ended;
      const now = s.secondsNow();
      // A microsecond short is over: seconds from the start are rounded, so `end` may sit a hair above `now`.
      if (end - now <= 1e-6 || s.ended) return !s.ended;
      if (this.wake.signal.aborted) this.wake = new AbortController();
      const due = s.hooks?.nextSilence();
      const until = due && due.at < end ? due.at : end;
      if (!(await s.wait(Math.max(0, until - now), this.wake.signal))) return false;
      if (due && !this.wake.signal.aborted && s.secondsNow() >= due.at - 1e-9 && !(await s.hooks?.fireSilence(due))) return false;
    }
  }

  /**
   * The call after the developer spoke: each line they say is answered, until someone ends it or
   * 30 s pass without one, when it ends `silence-timed-out` (the platform's default silence timeout).
   */
  async yours(handle: LiveHandler): Promise<void> {
    const { s } = this;
    for (;;) {
      // A line said before this wait and still queued is this wait's line, not an earlier one.
      const before = this.heard - this.lines.length;
      if (!(await this.pause(SILENCE_SECONDS, handle, true))) return;
      if (this.heard === before && !this.lines.length) {
        s.log(`No customer line for ${SILENCE_SECONDS} s: the call ends on silence`);
        return s.finish('silence-timed-out');
      }
    }
  }
}
