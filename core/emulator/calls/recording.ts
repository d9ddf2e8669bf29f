// The recording of a call that ran on the text timeline (no audio package, or `--no-audio`): a
// stand-in made in code, short alternating tones, the assistant's turns at 440 Hz and the
// customer's at 330 Hz, on the channel of each side (stereo: customer left, assistant right). A call
// with sound is recorded from its timeline instead (audio/render.ts).
import type { Rec } from '../store/store.js';
import type { RecordingKind } from './audio/render.js';
import { encodeWav, mix, silence, tone } from './wav.js';

const RATE = 8000;
/** Longest stand-in recording, whatever the call's length. */
const MAX_SECONDS = 4;
const TURN_SECONDS = 0.5;

export type { RecordingKind } from './audio/render.js';

function secondsOf(call: Rec): number {
  const ms = Date.parse(String(call.endedAt)) - Date.parse(String(call.startedAt));
  return Number.isFinite(ms) && ms > 0 ? Math.min(MAX_SECONDS, ms / 1000) : 2;
}

/** The two sides of a stand-in conversation: turns alternate, the assistant speaking first. */
export function sides(seconds: number): { assistant: Int16Array; customer: Int16Array } {
  const assistant: Int16Array[] = [];
  const customer: Int16Array[] = [];
  for (let t = 0, turn = 0; t < seconds - 1e-9; t += TURN_SECONDS, turn++) {
    const len = Math.min(TURN_SECONDS, seconds - t);
    const speaking = tone(turn % 2 === 0 ? 440 : 330, len, RATE);
    assistant.push(turn % 2 === 0 ? speaking : silence(len, RATE));
    customer.push(turn % 2 === 0 ? silence(len, RATE) : speaking);
  }
  const join = (parts: Int16Array[]): Int16Array => {
    const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  return { assistant: join(assistant), customer: join(customer) };
}

/** The WAV of one kind of recording for a call of `seconds`. */
export function recordingWav(kind: RecordingKind, seconds: number): Buffer {
  const { assistant, customer } = sides(seconds);
  const channels = kind === 'stereo' ? [customer, assistant] : kind === 'customer' ? [customer] : kind === 'assistant' ? [assistant] : [mix(assistant, customer)];
  return encodeWav({ sampleRate: RATE, channels });
}

/** The WAV of one kind of recording of an ended call: the one source of a call's audio. */
export function callRecordingWav(kind: RecordingKind, call: Rec): Buffer {
  return recordingWav(kind, secondsOf(call));
}
