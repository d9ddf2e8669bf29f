// A developer's custom voice server for tests, on 127.0.0.1 (port 0): each `voice-request` is
// answered as the test scripts it (a tone at the asked rate, after a delay; a status; raw bytes;
// no answer; a reset), and the server keeps what it received and its own timings, so a latency
// test compares the emulator's measure with what the server did, not with the scheduler.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One voice request as the server saw it. */
export interface VoiceHeard {
  headers: IncomingHttpHeaders;
  message: Record<string, unknown> & { type: string; text: string; sampleRate: number };
  /** Milliseconds from the request's arrival to the server's first byte of audio (its own wait). */
  waitedMs?: number;
}

/** How to answer one request: a tone (the default), a status with bytes, silence forever, a reset. */
export interface VoiceScript {
  delayMs?: number;
  status?: number;
  /** Raw bytes instead of the tone. */
  body?: Buffer;
  contentType?: string;
  hang?: boolean;
  reset?: boolean;
  /** Answer once this settles (what the test waits for first). */
  after?: Promise<unknown>;
}

/** A running fake voice server. */
export interface VoiceServer {
  url: string;
  heard: VoiceHeard[];
  close(): Promise<void>;
}

/** The tone the server speaks with, in Hz. */
export const TONE_HZ = 600;

/** Seconds of audio a text gets: 60 ms a character (a speaking pace). */
export const secondsFor = (text: string): number => text.length * 0.06;

/** A sine tone as 16-bit little-endian mono bytes. */
export function toneBytes(seconds: number, sampleRate: number, hz = TONE_HZ): Buffer {
  const n = Math.round(seconds * sampleRate);
  const out = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) out.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * hz * i) / sampleRate)), i * 2);
  return out;
}

/** Starts a fake voice server answering each request as `script` says. */
export async function startVoiceServer(script: (heard: VoiceHeard) => VoiceScript = () => ({})): Promise<VoiceServer> {
  const heard: VoiceHeard[] = [];
  const server = createServer((req, res) => {
    const arrived = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: VoiceHeard['message'] };
      const h: VoiceHeard = { headers: req.headers, message: body.message };
      heard.push(h);
      const s = script(h);
      if (s.reset) return req.socket.destroy();
      if (s.hang) return;
      const answer = (): void => {
        const bytes = s.body ?? toneBytes(secondsFor(h.message.text), h.message.sampleRate);
        res.writeHead(s.status ?? 200, { 'content-type': s.contentType ?? 'application/octet-stream' });
        // The first byte alone first, timed by the server as it writes it.
        h.waitedMs = performance.now() - arrived;
        res.write(bytes.subarray(0, 1));
        res.end(bytes.subarray(1));
      };
      if (s.after) void s.after.then(answer);
      else if (s.delayMs) setTimeout(answer, s.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/voice`,
    heard,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
