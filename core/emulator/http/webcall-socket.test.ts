// The web-call socket carries frames between a browser and the call engine. A recording stand-in
// engine takes the engine's place here; the engine's own behaviour is tested with the engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerFrame } from '../../webcall/local-protocol.js';
import { localSocketUrl } from '../../webcall/local-protocol.js';
import { startEmulator } from '../index.js';
import type { BrowserCustomer, Emulator } from '../index.js';

const seen: string[] = [];
let customer: BrowserCustomer | undefined;
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    webCallEngine: (call, browser) => {
      customer = browser;
      seen.push(`join ${call.id}`);
      return {
        playable: () => seen.push('playable'),
        customerSpoke: (ms) => seen.push(`spoke ${ms}`),
        customerSaid: (text) => seen.push(`said ${text}`),
        control: (message) => seen.push(`control ${JSON.stringify(message)}`),
        left: () => seen.push('left'),
      };
    },
  });
});
afterAll(() => emu.close());

async function webCall(): Promise<{ id: string; webCallUrl: string }> {
  const res = await fetch(`${emu.url}/call/web`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body: JSON.stringify({ assistant: { firstMessage: 'Hi' } }),
  });
  return (await res.json()) as { id: string; webCallUrl: string };
}

/** Opens the call's socket and collects its frames. */
async function join(url: string) {
  const ws = new WebSocket(localSocketUrl(url));
  const frames: ServerFrame[] = [];
  ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as ServerFrame));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  return { ws, frames, closed, send: (frame: object) => ws.send(JSON.stringify(frame)) };
}

const until = async (check: () => boolean) => {
  // Up to 20 s: a busy machine may take a while to carry a frame; a quiet one passes at once.
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('the web-call socket', () => {
  it('joins a web call and carries frames both ways until the emulator ends it', async () => {
    const call = await webCall();
    expect(call.webCallUrl).toBe(`${emu.url}/__voice/webcall/${call.id}`);
    seen.length = 0;
    const b = await join(call.webCallUrl);
    await until(() => b.frames.length > 0);
    expect(b.frames[0]).toEqual({ type: 'joined', callId: call.id });
    expect(seen).toEqual([`join ${call.id}`]);

    b.send({ type: 'app-message', data: 'playable' });
    b.send({ type: 'customer-speech', durationMs: 1200 });
    b.send({ type: 'app-message', data: JSON.stringify({ type: 'say', message: 'Hello there' }) });
    b.send({ type: 'app-message', data: 'not json' });
    await until(() => seen.length === 4);
    expect(seen.slice(1)).toEqual(['playable', 'spoke 1200', 'control {"type":"say","message":"Hello there"}']);

    customer!.message('listening');
    const line = customer!.speak('Hello from the assistant', 1.5);
    await until(() => b.frames.some((f) => f.type === 'speak'));
    const speak = b.frames.find((f) => f.type === 'speak') as Extract<ServerFrame, { type: 'speak' }>;
    expect(speak).toMatchObject({ text: 'Hello from the assistant', durationMs: 1500 });
    expect(b.frames.some((f) => f.type === 'app-message' && f.data === 'listening')).toBe(true);
    b.send({ type: 'spoken', id: speak.id });
    await line;

    customer!.end('assistant-ended-call');
    expect(await b.closed).toBe(4000);
    expect(b.frames.at(-1)).toEqual({ type: 'left', endedReason: 'assistant-ended-call' });
    // The emulator ended it: the browser's leaving is not reported as the customer's hang-up.
    expect(seen).not.toContain('left');
  });

  it('reports the browser leaving, and refuses a second join and unknown calls', async () => {
    const call = await webCall();
    seen.length = 0;
    const b = await join(call.webCallUrl);
    await until(() => b.frames.length > 0);
    await expect(join(call.webCallUrl)).rejects.toThrow(/409/);
    b.ws.close(1000);
    await until(() => seen.includes('left'));
    await expect(join(`${emu.url}/__voice/webcall/nope`)).rejects.toThrow(/404/);
  });
});
