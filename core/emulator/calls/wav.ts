// A call's recording: a real, short WAV file (8 kHz, 16-bit mono) with a soft tone, so players,
// downloaders and transcoders pointed at `recordingUrl` have a valid file to work on.

/** A WAV file of `seconds` (clamped to 0.5..5) holding a quiet 440 Hz tone with fades. */
export function recordingWav(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * Math.min(5, Math.max(0.5, seconds)));
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(samples * 2, 40);
  const fade = rate * 0.05;
  for (let i = 0; i < samples; i++) {
    const envelope = Math.min(1, i / fade, (samples - i) / fade);
    buf.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 3000 * envelope), 44 + i * 2);
  }
  return buf;
}
