// A browser for web calls with sound in tests: a `ws` client speaking the local protocol's audio,
// which collects the assistant's audio and the frames it is sent and streams a microphone the
// way a page does (100 ms pieces, each when it is due).
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import type { ClientFrame, ServerFrame } from '../../webcall/local-protocol.js';
import { audioSocketUrl } from '../../webcall/local-protocol.js';

/** The microphone's sample rate. */
export const RATE = 16000;

/** A page in a web call with sound. */
export type SoundBrowser = Awaited<ReturnType<typeof soundBrowser>>;

/** Joins the web call at `url` as a page that plays streamed audio. */
export async function soundBrowser(url: string) {
  const ws = new WebSocket(audioSocketUrl(url));
  const frames: ServerFrame[] = [];
  const heard: Int16Array[] = [];
  ws.on('message', (raw, binary) => {
    if (binary) {
      const bytes = raw as Buffer;
      heard.push(new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
    } else frames.push(JSON.parse(String(raw)) as ServerFrame);
  });
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  const send = (frame: ClientFrame) => ws.send(JSON.stringify(frame));
  /** Streams audio as a microphone does: 100 ms pieces, each when it is due (as long as the audio lasts). */
  const talk = async (samples: Int16Array) => {
    for (let at = 0; at < samples.length; at += RATE / 10) {
      ws.send(samples.subarray(at, at + RATE / 10));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const messages = () => frames.flatMap((f) => (f.type === 'app-message' ? [f.data as Record<string, unknown>] : []));
  return { ws, frames, heard, send, talk, messages };
}

/** Waits (polling) until `check` holds; fails the test after `ms`. */
export async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(check()).toBe(true);
}
