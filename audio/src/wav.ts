// WAV (RIFF, 16-bit integer PCM, mono or stereo): what recordings are served as and what
// recognisers, browsers and sox read.
import type { Pcm } from './pcm.js';

/** A 16-bit PCM WAV file of the audio. */
export function encodeWav(pcm: Pcm): Uint8Array {
  const channels = pcm.channels ?? 1;
  const dataBytes = pcm.samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string): void => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // integer PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, pcm.sampleRate, true);
  view.setUint32(28, pcm.sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < pcm.samples.length; i++) view.setInt16(44 + 2 * i, pcm.samples[i] as number, true);
  return out;
}

/** The audio of a 16-bit PCM WAV file (mono or stereo); throws a clear error for anything else. */
export function decodeWav(bytes: Uint8Array): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number): string => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a WAV file (no RIFF/WAVE header)');
  let format: { channels: number; sampleRate: number; bits: number; code: number } | undefined;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      format = { code: view.getUint16(body, true), channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true), bits: view.getUint16(body + 14, true) };
    } else if (id === 'data') {
      if (!format) throw new Error('WAV file has its data before its format');
      // 0xfffe is WAVE_FORMAT_EXTENSIBLE, which still holds integer PCM at 16 bits here.
      if ((format.code !== 1 && format.code !== 0xfffe) || format.bits !== 16)
        throw new Error(`unsupported WAV encoding (format ${format.code}, ${format.bits} bits): only 16-bit integer PCM is read`);
      if (format.channels !== 1 && format.channels !== 2) throw new Error(`unsupported WAV channel count ${format.channels}: only mono and stereo are read`);
      // Streaming writers leave the size at 0 or 0xffffffff: then the data runs to the end of the file.
      const end = size === 0 || size === 0xffffffff ? bytes.length : Math.min(bytes.length, body + size);
      const samples = new Int16Array(Math.floor((end - body) / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(body + 2 * i, true);
      return { samples, sampleRate: format.sampleRate, channels: format.channels as 1 | 2 };
    }
    at = body + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}
