// A call's audio, made from its timeline: each line synthesized again (the same text gives the
// same samples, and the kept ones cost nothing) and placed where it was said, cut where it was
// cut, keypad tones where keys were pressed, silence everywhere else, and the customer's noise
// over their whole channel. The recordings the API serves are these channels.
import type { PcmLike } from './port.js';
import type { TimelineData } from './timeline.js';
import type { Voices } from './voices.js';

/** Both sides of a call as separate mono channels of the same length. */
export interface CallChannels {
  sampleRate: number;
  customer: Int16Array;
  assistant: Int16Array;
}

/** Which part of the call a recording holds (`mono` mixes both sides). */
export type RecordingKind = 'mono' | 'stereo' | 'customer' | 'assistant';

/** Adds `pcm` into `into` from `at` seconds, for at most `seconds` of it. */
function place(into: Int16Array, pcm: PcmLike, at: number, sampleRate: number, seconds = Infinity): void {
  const from = Math.round(at * sampleRate);
  const n = Math.min(pcm.samples.length, Math.round(seconds * sampleRate), into.length - from);
  for (let i = 0; i < n; i++) {
    const v = (into[from + i] as number) + (pcm.samples[i] as number);
    into[from + i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
}

/** The two channels of a call from its timeline (`seconds`: its length; the timeline's own when omitted). */
export async function renderChannels(data: TimelineData, voices: Voices, seconds = data.seconds ?? 0): Promise<CallChannels> {
  const rate = data.sampleRate;
  const length = Math.max(0, Math.round(seconds * rate));
  const out = { customer: new Int16Array(length), assistant: new Int16Array(length) };
  for (const e of data.events) {
    if (e.type === 'speech') {
      // A voice server's line is its kept audio (silence once the process has let it go).
      const speech = e.audio ? voices.recordedAudio(e.audio) : (await voices.speech(e.side, e.text)).speech;
      if (speech) place(out[e.side], speech, e.at, rate, e.cut ? e.cut.at - e.at : Infinity);
    } else if (e.type === 'keys') {
      place(out[e.side], voices.port.dtmfTones(e.digits, { sampleRate: rate }), e.at, rate);
    }
  }
  const customer = data.noise ? voices.port.addNoise({ samples: out.customer, sampleRate: rate }, data.noise).samples : out.customer;
  return { sampleRate: rate, customer, assistant: out.assistant };
}

/** Sums both sides into one channel (the mono recording). */
function mixed(a: Int16Array, b: Int16Array): Int16Array {
  const out = new Int16Array(a.length);
  for (let i = 0; i < out.length; i++) {
    const v = (a[i] as number) + (b[i] as number);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

/** The WAV bytes of one kind of recording: stereo is the customer left, the assistant right, as the platform records. */
export function recordingBytes(channels: CallChannels, kind: RecordingKind, voices: Voices): Buffer {
  const { sampleRate, customer, assistant } = channels;
  const pcm: PcmLike =
    kind === 'stereo'
      ? voices.port.interleave({ samples: customer, sampleRate }, { samples: assistant, sampleRate })
      : { samples: kind === 'customer' ? customer : kind === 'assistant' ? assistant : mixed(customer, assistant), sampleRate };
  const bytes = voices.port.encodeWav(pcm);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
