// The assistant's side of a call's audio loop. A line waits for its turn: a reply starts no
// sooner than the end of the customer's turn plus `waitSeconds` (or `backoffSeconds` after the
// assistant was cut off), and is dropped when the customer started speaking again first; any other
// line waits for the customer to finish. It starts once its first piece is made (the clock stands
// still until then: that wait is the turn's `voiceLatency`); the rest is made meanwhile and added
// as the clock reaches the end of the audio known so far (the clock stands still again only for a
// piece not made by then). What needs a point further into the line (the customer's speech said
// over it, a line armed to be) waits for the whole line first, so every point is where it would be
// had the line been made whole. While it plays, the customer's speech over it (the rest of their
// turn, a line armed to talk over it, a line said live) stops it as `stopSpeakingPlan` says; the
// transcript, the conversation and the model's next request keep only the words it had reached,
// and the cut is in the recording.
import { firstMessageInterruptible, stopPlanOf } from './plans.js';
import type { Overlap } from './rules.js';
import { stopDecision } from './rules.js';
import type { SpeechEvent } from './timeline.js';
import { shifted } from './timeline.js';
import { lineEnded, lineStarted } from '../speech.js';
import type { CallAudio, LineSource, LineWriter } from './engine.js';
import type { Utterance } from './utterance.js';
import { placedSpans, placedWords, prepare } from './utterance.js';
import { customSpeech, hasCustomVoice } from './custom-voice.js';
import type { LineSpeech } from './custom-voice.js';
import { LineStream } from './line-stream.js';

/** Whether a line starts once its first piece is made (else once it is made whole: only the test comparing the two turns it off). */
export const LINES = { streamed: true };

/** A line's speech once it can start: its pieces as they come, the ms waited, and the voice server's part. */
type LineStart = Omit<LineSpeech, 'speech' | 'rest'> & { line: LineStream };

/** The speech of an assistant line once its first piece is made (a voice server's once whole); undefined once the call ended. */
async function lineStart(a: CallAudio, text: string): Promise<LineStart | undefined> {
  if (hasCustomVoice(a.s.assistant)) {
    const said = await customSpeech(a.s, a.voices, text);
    return said && { ...said, line: await LineStream.start(text, [Promise.resolve(said.speech), ...(said.rest ?? [])]) };
  }
  const { pieces, ms } = await a.voices.pieces('assistant', text);
  return { line: await LineStream.start(text, pieces), ms };
}

/** Says the armed customer line over the assistant's line under way: from its `over` point, no sooner than `earliest`, no later than the line's end. */
async function sayArmed(a: CallAudio, earliest: number): Promise<void> {
  const armed = a.armed;
  const line = a.speaking;
  if (!armed?.ready || a.placed || !line) return;
  a.armed = undefined;
  const offset = 'afterSeconds' in armed.over ? armed.over.afterSeconds : (line.words[armed.over.afterWords - 1]?.end ?? Infinity) - line.start;
  const at = Math.min(Math.max(earliest, line.start + offset), line.end);
  const u = armed.write ? await written(a, armed.write, line.words, at) : await armed.prepared;
  if (!u) return;
  a.place(u, at);
  if (armed.live) a.lines?.push({ text: u.text, started: true });
  overlap(a, { text: u.text, words: placedWords(u, at), speech: placedSpans(u, at)[0] }, at, true);
}

/** A written line made now (the clock stands still meanwhile), from the assistant's words heard before `at`. */
async function written(a: CallAudio, write: LineWriter, words: readonly { word: string; start: number }[], at: number): Promise<Utterance | undefined> {
  const line = await write(
    words
      .filter((w) => w.start < at)
      .map((w) => w.word)
      .join(' '),
  ).catch(() => undefined);
  return line === undefined || a.s.ended ? undefined : prepare(line, a.voices, a.noise);
}

/** Says an assistant line (see the file's comment); false once the call ended. */
export async function assistantSays(a: CallAudio, text: string, options: { streamed?: boolean; source?: LineSource } = {}): Promise<boolean> {
  const s = a.s;
  const source = options.source ?? 'reply';
  const said = await lineStart(a, text);
  if (!said) return false;
  const { line: speech } = said;
  let { ms } = said;
  const customerEnd = a.customerEnd();
  const floor = source === 'reply' || customerEnd === undefined ? a.floor : Math.max(a.floor, customerEnd);
  if (floor > a.now() && !(await a.until(floor))) return false;
  if (source === 'reply' && a.resume && a.resume.at <= a.now()) {
    a.timeline.add({ type: 'dropped', at: a.now(), text });
    s.log(`The assistant's reply was never said: the customer spoke again first ("${text}")`);
    s.lastLine = { text, heard: '' };
    return !s.ended;
  }
  // The customer's speech over the line is judged on the whole line (made now, the clock standing
  // still), as is a web call's (a live clock does not stand still for a late piece).
  if (!speech.complete && (a.resume || (a.armed?.ready && !a.placed) || a.out || !LINES.streamed)) {
    const t0 = performance.now();
    while (await speech.next());
    ms += Math.round(performance.now() - t0);
  }
  const start = a.now();
  noteLatency(a, start, ms);
  const begun = lineStarted(s, 'assistant', text, options.streamed === true);
  const line = a.timeline.nextLine('assistant');
  const words = shifted(speech.words, start);
  const audio = said.audio ? { audio: said.audio } : {};
  const event: SpeechEvent = a.timeline.add({ type: 'speech', side: 'assistant', at: start, end: start + speech.seconds, text, words, line, source, ...audio });
  const voiced = said.voice && a.timeline.add({ type: 'voice', at: start, text, seconds: Math.round(speech.seconds * 1000) / 1000, ...said.voice });
  const speaking: NonNullable<CallAudio['speaking']> = { start, end: start + speech.seconds, words, interruptible: source !== 'first-message' || firstMessageInterruptible(s.assistant) };
  a.speaking = speaking;
  const out = a.out?.line(text, speech.sampleRate);
  out?.push(speech.samples());
  /** Adds the line's next piece (made meanwhile, or waited for with the clock standing still); false once it was the last. */
  const more = async (): Promise<boolean> => {
    const piece = await speech.next();
    if (!piece) return false;
    words.push(...shifted(piece.words, start));
    speaking.end = start + speech.seconds;
    event.end = Math.round(speaking.end * 1000) / 1000;
    if (voiced) voiced.seconds = Math.round(speech.seconds * 1000) / 1000;
    out?.push(piece.samples);
    return true;
  };
  if (a.resume) overlap(a, a.resume.overlap, a.resume.at, false);
  else await sayArmed(a, start);
  let going = true;
  for (;;) {
    if (a.wake.signal.aborted) a.wake = new AbortController();
    going = await a.until(speaking.cutAt ?? speaking.end, a.wake.signal);
    if (!going) break;
    if (a.wake.signal.aborted) {
      // Woken by a line said live over this one: it is placed now, on the whole line, and the wait goes on to the (new) end.
      if (!a.armed?.live) break;
      while (await more());
      await sayArmed(a, a.now());
      continue;
    }
    // The clock reached the end of the audio known so far: the line goes on with its next piece.
    if (speaking.cutAt !== undefined || !(await more())) break;
  }
  const { cutAt: cutPoint, cutRule } = speaking;
  const cutAt = going ? cutPoint : a.now();
  a.speaking = undefined;
  if (cutAt === undefined) out?.end();
  else out?.cut();
  const heard =
    cutAt === undefined && !speech.stopped
      ? text
      : speaking.words
          .filter((w) => cutAt === undefined || w.start < cutAt)
          .map((w) => w.word)
          .join(' ');
  if (cutAt !== undefined) {
    event.end = Math.round(cutAt * 1000) / 1000;
    event.cut = { at: event.end, heard };
  }
  s.lastLine = { text, heard };
  if (!going) return false;
  if (cutAt !== undefined) cutOff(a, cutAt, heard, cutRule ?? 'the call ended');
  a.lastAssistant = heard;
  if (source !== 'hook') s.hooks?.assistantDone(a.now());
  lineEnded(s, 'assistant', heard, begun);
  return !s.ended;
}

/** The customer cut the assistant off at `at`: counted, `user-interrupted` sent, the backoff begins. */
function cutOff(a: CallAudio, at: number, heard: string, rule: string): void {
  a.timeline.add({ type: 'interruption', by: 'customer', at, rule, heard });
  a.s.log(`The customer interrupted the assistant (${rule}); it stopped after "${heard}"`);
  a.s.userInterrupts();
  a.floor = Math.max(a.floor, at + stopPlanOf(a.s.assistant).backoffSeconds);
  void a.s.hooks?.interrupted('assistant.speech.interrupted');
}

/** Notes the turn latencies of a reply starting at `start` (after a customer turn). */
function noteLatency(a: CallAudio, start: number, voiceMs: number): void {
  const turn = a.answering;
  if (!turn) return;
  a.answering = undefined;
  const latency = {
    modelLatency: Math.round(a.modelMs ?? 0),
    voiceLatency: voiceMs,
    transcriberLatency: turn.transcriberMs,
    endpointingLatency: Math.round(turn.endpointSeconds * 1000),
    turnLatency: Math.round((start - turn.speechEnd) * 1000),
  };
  a.modelMs = undefined;
  a.timeline.add({ type: 'latency', at: start, ...latency });
  a.s.latencies.push(latency);
}

/** What the customer's speech from `at` does to the assistant's line under way. */
export function overlap(a: CallAudio, o: Overlap, at: number, whole: boolean): void {
  const line = a.speaking;
  if (!line || at >= line.end) return;
  const decision = stopDecision(o, stopPlanOf(a.s.assistant), line.interruptible);
  if (decision.kind === 'acknowledgement') {
    if (whole && a.placed) a.placed.acknowledgement = true;
    a.timeline.add({ type: 'acknowledgement', at, text: o.text });
    a.s.log(`The customer said "${o.text}" over the assistant: an acknowledgement phrase, so the assistant carried on`);
  } else if (decision.kind === 'cut') {
    if (decision.at < line.end && (line.cutAt === undefined || decision.at < line.cutAt)) Object.assign(line, { cutAt: decision.at, cutRule: decision.rule });
  } else {
    const heard = o.words.filter((w) => w.start < line.end).map((w) => w.word);
    a.timeline.add({ type: 'interruption', by: 'assistant', at, rule: decision.rule, heard: heard.join(' ') });
    a.s.interruptions.count('assistant');
    a.s.log(`The assistant talked over the customer (${decision.rule})`);
    void a.s.hooks?.interrupted('customer.speech.interrupted');
  }
}
