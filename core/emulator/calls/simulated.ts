// A voice-mode simulation's call (the run's transport `vapi.websocket`): the target assistant on
// the model, the tester's lines written by its own model as the call goes, both sides on the
// call's audio loop. The tester's model time does not count on the call's clock (its pause does);
// the target's does. The tester's persona says how it talks (voice mode): a pause before each line,
// talking over the assistant (`afterSeconds` into its line or after `afterWords` of its words; the
// line is then written from what the tester heard by that moment), keys after a line.
import type { Json } from '../../messages/index.js';
import type { ChatMessage, ModelGateway } from '../../model/index.js';
import { ModelTalk } from './conversation-model.js';
import type { Over } from './audio/engine.js';
import { LiveLines } from './live.js';
import type { LiveLine } from './live.js';
import { DEFAULT_PAUSE_SECONDS } from './scenario-turns.js';
import type { CallSession } from './session.js';

/** How the tester says one of its lines. */
export interface CallerTurn {
  /** Talks over the assistant's line before it, from this point. */
  interrupt?: Over;
  /** Silence before the line, when it does not talk over the assistant. */
  pauseSeconds?: number;
  /** Keys pressed after the line. */
  dtmf?: string;
}

/** The tester of a voice-mode simulation. */
export interface SimulatedCaller {
  /** Its next line from the conversation it heard (the target's side, as the target's model sees it); `end` when it hangs up. */
  next(heard: readonly ChatMessage[]): Promise<{ line?: string; end?: boolean; failure?: string }>;
  /** How it says its line `n` (0-based). */
  turn(n: number): CallerTurn;
  /** Lines it may say before the call is ended for it. */
  maxTurns: number;
}

/** How the call went for the simulation: the conversation as the target's model saw it, and why it stopped. */
export interface SimulatedOutcome {
  messages: ChatMessage[];
  /** The tester's model failed (the item fails with it). */
  failure?: string;
  /** Every line was said and the call was ended for the tester. */
  outOfTurns?: boolean;
}

/** The platform's default `maxDurationSeconds`. */
const DEFAULT_MAX_SECONDS = 600;

/** Plays a voice-mode simulation on its call until someone hangs up, a model fails or the tester's turns run out. */
export async function converseSimulated(s: CallSession, gateway: ModelGateway, caller: SimulatedCaller, members?: Json[]): Promise<SimulatedOutcome> {
  await s.filled();
  s.setStatus('in-progress');
  s.maxSeconds = Number(s.assistant?.maxDurationSeconds) || DEFAULT_MAX_SECONDS;
  s.audio?.ahead(s.assistant, []);
  void s.send('assistant.started', { newAssistant: s.assistant ?? {} });
  const talk = new ModelTalk(s, gateway, members);
  s.talk = talk.hookTalk();
  const out: SimulatedOutcome = { messages: talk.history };
  const live = new LiveLines(s);
  // Lines said on the call from outside (`voice call say`) are heard like the tester's.
  const handle = (l: LiveLine): Promise<boolean> => (l.dtmf ? s.pressKeys('customer', l.dtmf, (keys) => talk.heard(keys)) : l.text !== undefined ? talk.customer(l.text) : Promise.resolve(!s.ended));
  let hungUp = false;
  // The line the tester wrote over the assistant, once it said one.
  let over: string | undefined;
  const ask = async (partial?: string): Promise<string | undefined> => {
    const heard = partial === undefined ? talk.history : [...talk.history, { role: 'assistant' as const, content: partial }];
    const got = await caller.next(heard);
    if (got.failure) out.failure = got.failure;
    if (got.end || got.failure) hungUp = true;
    return got.line?.trim() ? got.line : undefined;
  };
  const arm = (n: number, afterCustomerLine: boolean): void => {
    const when = caller.turn(n).interrupt;
    if (!when || !s.audio || n >= caller.maxTurns) return;
    s.audio.armWriter(async (heard) => (hungUp ? undefined : (over = await ask(heard))), when, afterCustomerLine);
  };
  arm(0, false);
  if (!(await talk.greet())) return out;
  for (let n = 0; n < caller.maxTurns; n++) {
    const turn = caller.turn(n);
    const started = (s.audio?.claimStarted() ?? false) && over !== undefined;
    let line = started ? over : undefined;
    over = undefined;
    if (!started && !hungUp) {
      // The assistant's silence hooks fire in a pause long enough for them.
      if (!(await live.pause(turn.pauseSeconds ?? DEFAULT_PAUSE_SECONDS, handle))) return out;
      line = await ask();
    }
    if (line === undefined) {
      if (!s.ended) s.finish('customer-ended-call');
      return out;
    }
    arm(n + 1, true);
    if (!(await talk.customer(line))) return out;
    if (turn.dtmf && !(await s.pressKeys('customer', turn.dtmf, (keys) => talk.heard(keys)))) return out;
  }
  out.outOfTurns = true;
  if (!s.ended) s.finish('customer-ended-call');
  return out;
}
