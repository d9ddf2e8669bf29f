// A small WAV (RIFF, 16-bit PCM) writer. The emulator serves recordings of ended calls with it;
// the call engine can hand it the samples of a simulated conversation.
import { VoiceError } from '../../errors.js';

/** What a recording is made of: one Int16Array of samples per channel, all the same length. */
export interface Pcm {
  sampleRate: number;
  channels: readonly Int16Array[];
}

/** Encodes PCM samples as a WAV file (44-byte header, interleaved little-endian 16-bit samples). */
export function encodeWav(pcm: Pcm): Buffer {
  const { sampleRate, channels } = pcm;
  const count = channels.length;
  if (count < 1) throw new VoiceError('a WAV file needs at least one channel');
  const frames = channels[0]?.length ?? 0;
  if (channels.some((c) => c.length !== frames)) throw new VoiceError('every channel must have the same number of samples');
  const dataBytes = frames * count * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // size of the fmt chunk
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(count, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * count * 2, 28); // bytes per second
  buf.writeUInt16LE(count * 2, 32); // bytes per frame
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  let at = 44;
  for (let i = 0; i < frames; i++) {
    for (const channel of channels) {
      buf.writeInt16LE(channel[i] as number, at);
      at += 2;
    }
  }
  return buf;
}

/** A sine tone at `hz` for `seconds`, at a quiet level, fading in and out to avoid clicks. */
export function tone(hz: number, seconds: number, sampleRate = 8000, level = 0.2): Int16Array {
  const n = Math.max(0, Math.round(seconds * sampleRate));
  const out = new Int16Array(n);
  const fade = Math.min(n / 2, sampleRate / 50);
  for (let i = 0; i < n; i++) {
    const envelope = Math.min(1, i / fade, (n - 1 - i) / fade);
    out[i] = Math.round(Math.sin((2 * Math.PI * hz * i) / sampleRate) * level * envelope * 32767);
  }
  return out;
}

/** Silence for `seconds`. */
export function silence(seconds: number, sampleRate = 8000): Int16Array {
  return new Int16Array(Math.max(0, Math.round(seconds * sampleRate)));
}

/** Sums channels sample by sample, clipped to 16 bits (a mono mix of both sides). */
export function mix(a: Int16Array, b: Int16Array): Int16Array {
  const out = new Int16Array(Math.max(a.length, b.length));
  for (let i = 0; i < out.length; i++) out[i] = Math.max(-32768, Math.min(32767, (a[i] ?? 0) + (b[i] ?? 0)));
  return out;
}
