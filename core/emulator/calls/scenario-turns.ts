// What every scenario-driven conversation does around the customer's turns, scripted or on a
// model: the pause before a turn (lines said live and due silence hooks taken meanwhile), a turn
// that talks over the assistant's line before it (armed before that line, so the audio loop
// starts it `afterSeconds` or `afterWords` into it; on the text timeline `user-interrupted` is all
// there is), the keys a turn presses, and the lines said live once the scenario is over; once the
// developer speaks on the call, the scenario stops and their lines carry it (`LiveLines.yours`).
import type { Over } from './audio/engine.js';
import { hearLanguage } from './language.js';
import { LiveLines } from './live.js';
import type { LiveLine } from './live.js';
import type { Scenario, ScenarioTurn } from './scenario.js';
import type { CallSession } from './session.js';

/** The pause before a customer's turn when the scenario gives none. */
export const DEFAULT_PAUSE_SECONDS = 0.8;

/** When an `interrupt` turn starts talking over the assistant (`true`: a second into its line). */
export function overOf(interrupt: ScenarioTurn['interrupt']): Over | undefined {
  if (interrupt === undefined || interrupt === false) return undefined;
  return interrupt === true ? { afterSeconds: 1 } : interrupt;
}

/** The steps around a scenario's customer turns; `heard` answers what the customer said (a line's turn or a keypad entry). */
export function customerTurns(s: CallSession, scenario: Scenario, heard: (text: string) => Promise<boolean>) {
  const live = new LiveLines(s);
  const handle = (line: LiveLine): Promise<boolean> =>
    line.dtmf ? s.pressKeys('customer', line.dtmf, heard) : line.text !== undefined ? s.customerSays(line.text, (h) => heard(h)) : Promise.resolve(true);
  const arm = (turn: ScenarioTurn | undefined, afterCustomerLine: boolean): void => {
    const over = overOf(turn?.interrupt);
    if (over && turn?.say !== undefined) s.audio?.arm(turn.say, over, afterCustomerLine);
  };
  return {
    live,
    /** The assistant's opening (`greet`), with the first turn armed when it talks over it. */
    opening(greet: () => Promise<boolean | void>): Promise<boolean> {
      arm(scenario.turns[0], false);
      return greet().then((ok) => ok !== false && !s.ended);
    },
    /** Before turn `i`: its pause (unless it already started over the assistant), and the next turn armed. */
    async before(i: number): Promise<boolean> {
      const turn = scenario.turns[i] as ScenarioTurn;
      const started = s.audio?.claimStarted() ?? false;
      if (!started && !(await live.pause(turn.pauseSeconds ?? DEFAULT_PAUSE_SECONDS, handle))) return false;
      // The developer spoke on the call: it is theirs, and the scenario's customer says nothing more.
      if (live.taken) return live.yours(handle).then(() => false);
      if (turn.interrupt && !s.audio) s.userInterrupts();
      hearLanguage(s, turn.language);
      arm(scenario.turns[i + 1], turn.say !== undefined);
      return !s.ended;
    },
    /** The keys a turn presses (after its line). */
    keys(turn: ScenarioTurn): Promise<boolean> {
      return turn.dtmf ? s.pressKeys('customer', turn.dtmf, heard) : Promise.resolve(!s.ended);
    },
    /** Lines said live after the scenario's last turn; false once the call ended. */
    async end(): Promise<boolean> {
      if (!(await live.pause(0, handle))) return false;
      if (live.taken) return live.yours(handle).then(() => false);
      return true;
    },
  };
}
