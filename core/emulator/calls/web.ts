// A web call whose customer is a browser (voice/webcall's local transport): in progress from the
// join, the assistant greets once the browser plays its audio, every customer turn (the
// microphone over the speech threshold for a moment) moves the conversation on, and the in-call
// controls (say, add-message, control, end-call) act on it. The conversation's steps are the
// engine's own (speak, greet, tool calls); only the customer differs. With sound (`voice dev` with
// voice-agent-audio, and a page that asked for streamed audio) the assistant's lines go to the page
// as audio (web-stream.ts) and the microphone's audio comes back to the voice activity detector
// (web-microphone.ts), and to the developer's transcriber when the assistant has one
// (web-transcriber.ts: its words are the customer's turns); without, the page speaks each line itself.
import type { Json } from '../../messages/index.js';
import type { BrowserCall, BrowserCustomer } from './browser.js';
import { argumentsFor } from './arguments.js';
import { callTools, greet, scriptedNote, STAND_IN_REPLY } from './conversation.js';
import { ModelTalk } from './conversation-model.js';
import { toolName, toolsOf } from './resolve.js';
import type { Scenario } from './scenario.js';
import type { CallSession } from './session.js';
import type { Span } from './audio/rules.js';
import { SAMPLE_RATE } from './audio/timeline.js';
import { BrowserMicrophone, browserTurn } from './web-microphone.js';
import { BrowserStream } from './web-stream.js';
import type { HeldTurn } from './web-endpointing.js';
import { webEndpointing } from './web-endpointing.js';
import { WebTranscriber } from './web-transcriber.js';

/** Seconds a browser that cannot signal it plays audio is given before the assistant starts anyway. */
const PLAYABLE_WAIT_SECONDS = 3;

/**
 * What a wordless customer turn is transcribed as: the scenario's next line while there is one (the
 * emulator runs no speech recognition) and no words were said in the call, then how long they spoke.
 */
function heard(scenario: Scenario | undefined, index: number, durationMs: number): string {
  const said = (scenario?.turns ?? []).map((turn) => turn.say).filter((say): say is string => typeof say === 'string' && say.trim() !== '');
  return said[index] ?? `(the customer spoke for ${(durationMs / 1000).toFixed(1)} seconds)`;
}

/** Runs the conversation of a web call a browser joined; `talk` resolves when the call has ended. */
export function webConversation(s: CallSession, browser: BrowserCustomer, scenario: Scenario): { call: BrowserCall; talk: (members?: Json[]) => Promise<void> } {
  const model = s.deps.model;
  // Decided once the assistant is known (at the start of the call).
  let talk: ModelTalk | undefined;
  let muted = false;
  let turns = 0;
  // Words said in the call (typed, said from outside, or recognised by the browser) make it the
  // developer's: from then on the scenario lends no more lines to a wordless turn.
  let theirs = false;
  let greeted = false;
  let queue: Promise<unknown> = Promise.resolve();
  // Set once the call has sound (the audio package loaded and the page streams).
  let stream: BrowserStream | undefined;
  let mic: BrowserMicrophone | undefined;
  let recognition = false;
  // The developer's transcriber makes the turns: the browser's recognition is not used meanwhile.
  let transcribing = () => false;
  // With sound, the developer's endpointing (when the assistant asks it) holds each transcript: true when it took one.
  let held: (text: string, transcriberMs?: number) => boolean = () => false;
  let playable: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (playable = resolve));
  const ended = new Promise<void>((resolve) => s.stop.signal.addEventListener('abort', () => resolve(), { once: true }));

  s.browser = {
    message: (message) => browser.message(message),
    speak: (text, seconds) => (muted ? Promise.resolve() : browser.speak(text, seconds)),
    streams: browser.audio !== undefined,
  };
  // `finish` sends the ended status first; the browser leaves after it.
  s.stop.signal.addEventListener('abort', () => queueMicrotask(() => browser.end(String(s.call.endedReason ?? 'customer-ended-call'))), { once: true });

  /** Runs conversation steps one after another, so lines never overlap. */
  const then = (step: () => Promise<unknown>) => {
    queue = queue.then(() => (s.ended ? undefined : step())).catch((err: unknown) => s.log(`Web call step failed: ${(err as Error).message}`, 'ERROR'));
  };
  const greetOnce = () => {
    if (greeted) return;
    greeted = true;
    then(() => (talk ? talk.greet() : greet(s)));
  };

  /** One customer turn: what the browser (or the developer's transcriber, `transcriberMs`) recognised, else the scenario's next line (or how long they spoke); `ended`: the developer's endpointing held it. */
  const customerTurn = (durationMs: number, said?: string, span?: Span, transcriberMs?: number, ended?: HeldTurn) => {
    if (said !== undefined) theirs = true;
    then(async () => {
      const index = turns++;
      const text = said ?? heard(theirs ? undefined : scenario, index, durationMs);
      // With sound the customer's audio is the microphone's: the turn is heard, never synthesized.
      if (s.audio) browserTurn(s.audio, text, span, transcriberMs, ended);
      if (talk) return s.audio ? talk.heard(text) : talk.customer(text);
      if (!s.audio && !(await s.speak('user', text))) return;
      // As in simulated calls, the assistant calls each of its function tools once, after the customer's first words.
      const tools = index === 0 ? toolsOf(s.deps.store, s.assistant).filter((t) => t.type === 'function' && toolName(t)) : [];
      if (tools.length)
        await callTools(
          s,
          tools.map((tool) => ({ tool, arguments: argumentsFor((tool.function as Json).parameters as Json | undefined) })),
        );
      else await s.speak('assistant', STAND_IN_REPLY);
    });
  };

  const control = (message: Json) => {
    if (message.type === 'say' && typeof message.message === 'string') {
      const text = message.message;
      then(async () => {
        if ((await s.speak('assistant', text)) && message.endCallAfterSpoken === true) s.finish('assistant-ended-call-after-message-spoken');
      });
    } else if (message.type === 'add-message' && message.message && typeof message.message === 'object') {
      const { role, content } = message.message as Json;
      if (typeof content !== 'string') return;
      if (role === 'user') theirs = true;
      then(async () => {
        const stamp = s.stamp();
        if (role === 'system') s.push({ role: 'system', message: content, ...stamp });
        else s.push({ role: role === 'assistant' ? 'bot' : 'user', message: content, ...stamp, endTime: stamp.time });
        if (talk && (role === 'system' || role === 'user' || role === 'assistant')) talk.history.push({ role, content });
        if (message.triggerResponseEnabled !== false && role !== 'assistant') await (talk ? talk.reply() : s.speak('assistant', STAND_IN_REPLY));
      });
    } else if (message.type === 'control') {
      if (message.control === 'mute-assistant') {
        muted = true;
        if (stream) stream.muted = true;
        browser.silence();
      } else if (message.control === 'unmute-assistant') {
        muted = false;
        if (stream) stream.muted = false;
      } else if (message.control === 'say-first-message') greetOnce();
    } else if (message.type === 'end-call') s.finish('assistant-ended-call');
  };

  /** The assistant's `customer.speech.timeout` hooks (idle messages), with sound: each fires once the customer has said nothing for its timeoutSeconds. */
  const idleMessages = async () => {
    s.talk ??= talk ? talk.hookTalk() : { reply: () => s.speak('assistant', STAND_IN_REPLY), remember: () => undefined };
    const queued = new Set<string>();
    for (;;) {
      const due = s.hooks?.nextSilence();
      if (!(await s.wait(due ? Math.max(0.05, due.at - s.secondsNow()) : 0.25))) return;
      const still = s.hooks?.nextSilence();
      const key = still && `${still.index}@${still.at}`;
      if (!still || !key || queued.has(key) || s.secondsNow() < still.at - 1e-6 || s.audio?.speaking || mic?.speaking) continue;
      queued.add(key);
      then(() => s.hooks?.fireSilence(still) ?? Promise.resolve(true));
    }
  };

  // A squad's members come with the call's cast: the model hands over to them.
  const run = async (members?: Json[]) => {
    if (model?.configured(s.assistant)) talk = new ModelTalk(s, model, members);
    else scriptedNote(s);
    s.hear = (line) => {
      if (s.ended || line.text === undefined) return false;
      customerTurn(0, line.text);
      return true;
    };
    s.setStatus('in-progress');
    if (s.audio && browser.audio) {
      const audio = s.audio;
      // The developer's transcriber connects first (the call ends when none can), as on phone calls.
      if (!(await audio.openTranscriber())) return;
      stream = new BrowserStream(
        browser.audio,
        () => audio.now(),
        () => browser.silence(),
      );
      const m = (mic = new BrowserMicrophone(audio, SAMPLE_RATE, (span) => customerTurn(Math.round((span.end - span.start) * 1000), undefined, span)));
      held = webEndpointing(audio, (turn) => customerTurn(0, turn.text, undefined, turn.transcriberMs, turn));
      audio.out = stream;
      if (audio.transcriber?.hearing) {
        const web = new WebTranscriber(audio, audio.transcriber, stream, (text, ms) => m.said(text) && (held(text, ms) || customerTurn(0, text, undefined, ms)));
        audio.out = web;
        m.listeners.add((samples, at) => web.hear(samples, at));
        // A transcriber that stays silent after the customer spoke has failed, as on phone calls.
        m.spans.add((span) => audio.transcriber?.spoke(span.start, span.end));
      }
      transcribing = () => audio.transcriber?.hearing === true;
      mic.recognition = recognition || transcribing();
      browser.audio.start(SAMPLE_RATE);
    }
    await Promise.race([ready, s.wait(PLAYABLE_WAIT_SECONDS)]);
    if (s.ended) return;
    browser.message('listening');
    void s.send('assistant.started', { newAssistant: s.assistant ?? {} });
    greetOnce();
    if (s.audio) void idleMessages();
    await ended;
  };

  return {
    talk: run,
    call: {
      playable: () => playable(),
      // With sound the detector decides when the customer spoke, not the page's level meter.
      customerSpoke: (durationMs) => (mic ? undefined : customerTurn(durationMs)),
      customerSaid: (text) => {
        if (transcribing()) return void s.log(`The page's words are not used ("${text}"): your transcriber makes the customer's turns from the microphone`, 'WARN');
        if ((!mic || mic.said(text)) && !held(text)) customerTurn(0, text);
      },
      microphone: (samples) => mic?.push(samples),
      recognition: (working) => {
        recognition = working;
        if (mic) mic.recognition = working || transcribing();
      },
      control,
      left: () => s.finish('customer-ended-call'),
    },
  };
}
