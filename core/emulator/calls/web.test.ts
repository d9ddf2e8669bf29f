// A web call run by the call engine with a browser stand-in (a `ws` client speaking the local
// protocol) as its customer: what the browser receives, what the call record ends up holding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ClientFrame, ServerFrame } from '../../webcall/local-protocol.js';
import { localSocketUrl } from '../../webcall/local-protocol.js';
import { messagesOf, validateServerMessage } from '../../schemas/validate.js';
import { startFakeModel } from '../../model/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';

let emu: Emulator;
const auth = { authorization: 'Bearer k', 'content-type': 'application/json' };

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 20 });
});
afterAll(() => emu.close());

/** A browser stand-in: plays every line at once and records what it gets. */
async function browser(url: string) {
  const ws = new WebSocket(localSocketUrl(url));
  const frames: ServerFrame[] = [];
  const send = (frame: ClientFrame) => ws.send(JSON.stringify(frame));
  ws.on('message', (raw) => {
    const frame = JSON.parse(String(raw)) as ServerFrame;
    frames.push(frame);
    if (frame.type === 'speak') setTimeout(() => send({ type: 'spoken', id: frame.id }), 20);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  const messages = () => frames.filter((f): f is Extract<ServerFrame, { type: 'app-message' }> => f.type === 'app-message').map((f) => f.data as { type?: string; [k: string]: unknown });
  return { ws, frames, send, closed, messages };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
}

async function getCall(id: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${emu.url}/call/${id}`, { headers: auth })).json()) as Record<string, unknown>;
}

describe('a web call with the browser as the customer', () => {
  it('is in progress on join, greets, answers turns and say(), and ends with customer-ended-call when the browser leaves', async () => {
    const body = { assistant: { name: 'Web', firstMessage: 'Hello from the emulator.' }, assistantOverrides: { firstMessage: 'Hi Ada, welcome!' } };
    const created = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string; webCallUrl: string };
    const b = await browser(created.webCallUrl);
    await until(() => b.frames.some((f) => f.type === 'joined'));
    expect((await getCall(created.id)).status).toBe('in-progress');

    b.send({ type: 'app-message', data: 'playable' });
    await until(() => b.messages().some((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.role === 'assistant'));
    const data = b.frames.filter((f) => f.type === 'app-message').map((f) => (f as { data: unknown }).data);
    expect(data).toContain('listening');
    expect(b.messages().some((m) => m.type === 'status-update' && m.status === 'in-progress')).toBe(true);
    expect(b.frames.find((f) => f.type === 'speak')).toMatchObject({ text: 'Hi Ada, welcome!' });
    const types = new Set(b.messages().map((m) => m.type));
    for (const type of ['speech-update', 'model-output', 'conversation-update', 'transcript']) expect(types).toContain(type);
    expect(b.messages().some((m) => m.type === 'transcript' && m.transcriptType === 'partial')).toBe(true);

    b.send({ type: 'customer-speech', durationMs: 1400 });
    await until(() => b.messages().some((m) => m.type === 'transcript' && m.role === 'user' && m.transcriptType === 'final'));
    await until(() => b.frames.filter((f) => f.type === 'speak').length >= 2);

    b.send({ type: 'app-message', data: JSON.stringify({ type: 'say', message: 'A line said on request.' }) });
    await until(() => b.messages().some((m) => m.type === 'transcript' && m.transcript === 'A line said on request.' && m.transcriptType === 'final'));

    // The browser's messages are the server messages the call builds: each fits its published schema.
    // (`assistant.started` is in the serverMessages list but has no schema of its own.)
    for (const message of b.messages().filter((m) => typeof m === 'object' && m.type !== 'assistant.started'))
      expect(messagesOf(await validateServerMessage(message)), String(message.type)).toEqual([]);

    b.ws.close(1000);
    await emu.calls.idle();
    const ended = await getCall(created.id);
    expect(ended).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    const transcript = (ended.artifact as { transcript: string }).transcript;
    expect(transcript).toContain('AI: Hi Ada, welcome!');
    expect(transcript).toContain("User: Hi, I'm calling to check on my appointment.");
    expect(transcript).toContain('AI: A line said on request.');
  });

  it('ends the browser side when the assistant ends the call (end-call)', async () => {
    const created = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify({ assistant: { firstMessage: 'Hi.' } }) })).json()) as {
      id: string;
      webCallUrl: string;
    };
    const b = await browser(created.webCallUrl);
    b.send({ type: 'app-message', data: 'playable' });
    await until(() => b.frames.some((f) => f.type === 'speak'));
    b.send({ type: 'app-message', data: JSON.stringify({ type: 'end-call' }) });
    expect(await b.closed).toBe(4000);
    const last = b
      .messages()
      .filter((m) => m.type === 'status-update')
      .at(-1);
    expect(last).toMatchObject({ status: 'ended', endedReason: 'assistant-ended-call' });
    expect(b.frames.at(-1)).toEqual({ type: 'left', endedReason: 'assistant-ended-call' });
    await emu.calls.idle();
    expect(await getCall(created.id)).toMatchObject({ status: 'ended', endedReason: 'assistant-ended-call' });
  });

  it('ends the browser side when maxDurationSeconds passes', async () => {
    const body = { assistant: { firstMessage: 'Hi.', maxDurationSeconds: 10 } };
    const created = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string; webCallUrl: string };
    const b = await browser(created.webCallUrl);
    b.send({ type: 'app-message', data: 'playable' });
    // 10 simulated seconds at --speed 20: half a second.
    expect(await b.closed).toBe(4000);
    expect(b.frames.at(-1)).toEqual({ type: 'left', endedReason: 'exceeded-max-duration' });
    await emu.calls.idle();
    expect(await getCall(created.id)).toMatchObject({ status: 'ended', endedReason: 'exceeded-max-duration' });
  });

  it("hands a squad's web call to the member its model names", async () => {
    const fake = await startFakeModel([{ toolCalls: [{ name: 'handoff_to_Billing', arguments: { destination: 'Billing' } }] }, { text: 'Billing here, your invoice is paid.' }]);
    const withModel = await startEmulator({ port: 0, speed: 20, model: { url: fake.url, model: 'fake-llm' } });
    try {
      const model = (content: string) => ({ provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content }] });
      const front = {
        name: 'Front',
        firstMessage: 'Front desk.',
        model: { ...model('You answer the phone.'), tools: [{ type: 'handoff', destinations: [{ type: 'assistant', assistantName: 'Billing' }] }] },
      };
      const billing = { name: 'Billing', model: model('You do billing.') };
      const body = { squad: { members: [{ assistant: front }, { assistant: billing }] } };
      const res = await fetch(`${withModel.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      const created = (await res.json()) as { id: string; webCallUrl: string };
      const b = await browser(created.webCallUrl);
      b.send({ type: 'app-message', data: 'playable' });
      await until(() => b.frames.some((f) => f.type === 'speak'));
      b.send({ type: 'customer-speech', durationMs: 1200 });
      await until(() => b.frames.some((f) => f.type === 'speak' && f.text === 'Billing here, your invoice is paid.'));
      expect((fake.requests[0]?.body.messages as { content: string }[])[0]?.content).toBe('You answer the phone.');
      expect((fake.requests[1]?.body.messages as { content: string }[])[0]?.content).toBe('You do billing.');
      b.ws.close(1000);
      await withModel.calls.idle();
    } finally {
      await withModel.close();
      await fake.close();
    }
  });
});
