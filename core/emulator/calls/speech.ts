// A spoken line's messages, the same with or without sound: `model-output`,
// `assistant.speechStarted`, `speech-update` and a partial transcript when it starts; the final
// transcript (what was heard: less when it was cut off), `speech-update` stopped and the
// conversation's new message when it ends. On the text timeline (no audio package, or
// `--no-audio`) a line lasts about 2.5 words a second; with sound, calls/audio/engine.ts times it.
import type { CallSession } from './session.js';

/** Simulated seconds a line takes to say on the text timeline: about 2.5 words a second, at least one second. */
export function speakingSeconds(text: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(1, words / 2.5);
}

/** A line under way: its turn number and when it started. */
export interface Begun {
  turn: number;
  time: number;
  secondsFromStart: number;
}

/** Sends what the start of a line sends; returns its turn and start. */
export function lineStarted(s: CallSession, role: 'assistant' | 'user', text: string, streamed: boolean): Begun {
  const turn = s.nextTurn();
  const start = s.stamp();
  if (role === 'assistant') {
    // A model's line has had its `model-output` messages as it streamed in.
    if (!streamed) void s.send('model-output', { output: { content: text } });
    void s.send('assistant.speechStarted', { text, turn });
  }
  void s.send('speech-update', { status: 'started', role, turn });
  const words = text.split(/\s+/);
  const partial = words.slice(0, Math.ceil(words.length / 2)).join(' ');
  // Nothing is known of a line a transcriber has not heard yet: no partial transcript.
  if (partial) {
    void s.send('transcript', { role, transcriptType: 'partial', transcript: partial });
    s.deps.record.add({ kind: 'call.transcript', callId: s.call.id, role, text: partial, partial: true });
  }
  return { turn, ...start };
}

/** Sends what the end of a line sends and adds `heard` to the conversation (nothing when nothing was heard); `endSeconds`: where its speech ended, when before now. */
export function lineEnded(s: CallSession, role: 'assistant' | 'user', heard: string, begun: Begun, endSeconds?: number): void {
  const end = endSeconds === undefined ? Math.round(s.deps.clock.now()) : Math.round(s.startedMs + endSeconds * 1000);
  if (heard) void s.send('transcript', { role, transcriptType: 'final', transcript: heard });
  void s.send('speech-update', { status: 'stopped', role, turn: begun.turn });
  if (!heard) return;
  s.deps.record.add({ kind: 'call.transcript', callId: s.call.id, role, text: heard });
  const name = role === 'assistant' && typeof s.assistant?.name === 'string' ? { assistantName: s.assistant.name } : {};
  s.push({ role: role === 'assistant' ? 'bot' : 'user', message: heard, time: begun.time, secondsFromStart: begun.secondsFromStart, endTime: end, duration: end - begun.time, ...name });
}

/** One line on the text timeline: its messages, and about 2.5 words a second (a web call's browser plays it meanwhile). */
export async function speakText(s: CallSession, role: 'assistant' | 'user', text: string, streamed: boolean): Promise<boolean> {
  const begun = lineStarted(s, role, text, streamed);
  // A browser in the call hears the assistant's line; the line lasts until it has been played.
  const heard = role === 'assistant' ? s.browser?.speak(text, speakingSeconds(text)) : undefined;
  const done = (await Promise.all([s.wait(speakingSeconds(text)), heard]))[0] && !s.ended;
  // Cut off by a hang-up or the time limit: the line was never finished, nothing more is sent.
  if (!done) return false;
  s.lastLine = { text, heard: text };
  lineEnded(s, role, text, begun);
  return true;
}
