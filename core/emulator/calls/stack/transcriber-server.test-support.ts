// A developer's custom transcriber for tests, on 127.0.0.1 (port 0): it keeps the start frame and
// the audio it receives (interleaved 16-bit stereo), and `answerAfterMs` after the last frame of a
// burst of audio answers with the next scripted transcription for the customer channel, recording
// its own wait so a latency test compares the emulator's measure with what the server did.
import type { AddressInfo } from 'node:net';
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';

/** What a fake transcriber does after each burst of audio: a transcription, garbage, or nothing. */
export type TranscriberAnswer = string | { garbage: string } | { close: true } | undefined;

/** A running fake transcriber. */
export interface TranscriberServer {
  url: string;
  /** The text frames received (the start frame first). */
  texts: unknown[];
  /** The audio received, interleaved 16-bit stereo bytes. */
  audio(): Buffer;
  /** Each answer's wait from the last audio frame to its sending, ms. */
  waits: number[];
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

/** Starts a fake transcriber answering burst `i` with `script(i)`, `answerAfterMs` after its last frame. */
export async function startTranscriber(script: (burst: number) => TranscriberAnswer, answerAfterMs = 50): Promise<TranscriberServer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const texts: unknown[] = [];
  const chunks: Buffer[] = [];
  const waits: number[] = [];
  const headers: TranscriberServer['headers'] = [];
  server.on('connection', (ws: WebSocket, req) => {
    headers.push(req.headers);
    let timer: NodeJS.Timeout | undefined;
    let lastFrame = 0;
    let burst = 0;
    ws.on('message', (data: Buffer, binary) => {
      if (!binary) return void texts.push(JSON.parse(String(data)));
      chunks.push(Buffer.from(data));
      lastFrame = performance.now();
      clearTimeout(timer);
      timer = setTimeout(() => {
        const answer = script(burst++);
        if (answer === undefined) return;
        waits.push(performance.now() - lastFrame);
        if (typeof answer === 'string') ws.send(JSON.stringify({ type: 'transcriber-response', transcription: answer, channel: 'customer' }));
        else if ('garbage' in answer) ws.send(answer.garbage);
        else ws.close();
      }, answerAfterMs);
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/transcribe`,
    texts,
    audio: () => Buffer.concat(chunks),
    waits,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of server.clients) c.terminate();
        server.close(() => resolve());
      }),
  };
}

/** The mean absolute level of one channel of interleaved 16-bit stereo bytes. */
export function level(bytes: Buffer, ch: 0 | 1): number {
  let sum = 0;
  const n = Math.floor(bytes.length / 4);
  for (let i = 0; i < n; i++) sum += Math.abs(bytes.readInt16LE(i * 4 + ch * 2));
  return n ? sum / n : 0;
}
