// The live stream's compact (`lite=1`) and batched (`batch=MS`) forms, as the inspector reads them:
// the same events as the plain stream, fewer and smaller messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Delivery, Emulator } from '../index.js';
import { maskSecrets } from '../store/mask.js';
import type { RecordEvent } from '../store/record.js';
import { callSummary, stripDelivery } from './stream.js';
import { startHook } from '../calls/testing.js';
import type { Hook } from '../calls/testing.js';

const H = { authorization: 'Bearer k', 'content-type': 'application/json' };
let emu: Emulator;
let hook: Hook;

beforeAll(async () => {
  hook = await startHook((r) => (r.message.type === 'tool-calls' ? { json: { results: [{ toolCallId: (r.message.toolCallList as { id: string }[])[0]?.id, result: 'Booked.' }] } } : undefined));
  emu = await startEmulator({ speed: 50 });
});

afterAll(async () => {
  await emu.close();
  await hook.close();
});

/** Reads SSE messages from `path` until `done` says so (or 10 s pass); returns them parsed. */
/** Reads the stream until `done`; `opened` runs once the emulator answers, when it already follows the record for this reader. */
async function readStream(path: string, done: (messages: { id?: string; event?: string; data: string }[]) => boolean, opened?: () => void): Promise<{ id?: string; event?: string; data: string }[]> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 10_000);
  const res = await fetch(`${emu.url}${path}`, { signal: ctrl.signal });
  opened?.();
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const messages: { id?: string; event?: string; data: string }[] = [];
  try {
    while (!done(messages)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += decoder.decode(value, { stream: true });
      let at: number;
      while ((at = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, at);
        text = text.slice(at + 2);
        const m: { id?: string; event?: string; data: string } = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) m.id = line.slice(4);
          else if (line.startsWith('event: ')) m.event = line.slice(7);
          else if (line.startsWith('data: ')) m.data += line.slice(6);
        }
        if (m.event) messages.push(m);
      }
    }
  } finally {
    clearTimeout(timer);
    ctrl.abort();
  }
  return messages;
}

async function endedCall(): Promise<string> {
  const post = async (path: string, body: unknown): Promise<{ id: string }> =>
    (await (await fetch(`${emu.url}${path}`, { method: 'POST', headers: H, body: JSON.stringify(body) })).json()) as { id: string };
  const a = await post('/assistant', {
    name: 'Streamed',
    firstMessage: 'Hello.',
    model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'book', parameters: { type: 'object', properties: {} } } }] },
    server: { url: `${hook.url}/hook`, headers: { 'x-vapi-secret': 'shh' } },
  });
  const call = await post('/call', { assistantId: a.id, customer: { number: '+14155550123', name: 'Ada' } });
  await emu.calls.idle();
  return call.id;
}

describe('the live stream for the inspector', () => {
  it('batch=MS sends the same events as the record holds, as JSON arrays, the id being the last sequence number', async () => {
    const id = await endedCall();
    const plain = JSON.parse(JSON.stringify(emu.record.list({ callId: id }))) as RecordEvent[];
    const batched = await readStream(`/__voice/events?since=0&callId=${id}&batch=100`, (m) => m.reduce((n, x) => n + (JSON.parse(x.data) as unknown[]).length, 0) >= plain.length);
    expect(batched.every((m) => m.event === 'batch')).toBe(true);
    const events = batched.flatMap((m) => JSON.parse(m.data) as RecordEvent[]);
    // The same events, each delivery's secrets masked (the record keeps them to replay).
    expect(events).toEqual(plain.map((e) => (e.kind === 'delivery' ? { ...e, delivery: maskSecrets(e.delivery) } : e)));
    expect(plain.some((e) => e.kind === 'call.status' && e.status === 'ended')).toBe(true);
    expect(events.length).toBeGreaterThan(batched.length);
    expect(batched.at(-1)?.id).toBe(String(events.at(-1)?.seq));
  });

  it('batches live events too: what happens within the interval arrives as one message', async () => {
    let opened!: () => void;
    const open = new Promise<void>((r) => (opened = r));
    const done = readStream('/__voice/events?batch=300', (m) => m.length > 0, opened);
    await open;
    emu.record.add({ kind: 'call.log', callId: 'c-live', text: 'one' });
    emu.record.add({ kind: 'call.log', callId: 'c-live', text: 'two' });
    const [first] = await done;
    expect((JSON.parse(first?.data ?? '[]') as RecordEvent[]).map((e) => (e.kind === 'call.log' ? e.text : e.kind))).toEqual(['one', 'two']);
  });

  it('lite=1 gives each status change a summary of its call and strips deliveries (tool calls and results kept), no secret included', async () => {
    const id = await endedCall();
    const count = emu.record.list({ callId: id }).length;
    const lite = await readStream(`/__voice/events?since=0&callId=${id}&lite=1&batch=100`, (m) => m.reduce((n, x) => n + (JSON.parse(x.data) as unknown[]).length, 0) >= count);
    const events = lite.flatMap((m) => JSON.parse(m.data) as (RecordEvent & { call?: Record<string, unknown> })[]);
    const call = (await (await fetch(`${emu.url}/call/${id}`, { headers: H })).json()) as Record<string, unknown>;
    const ended = events.find((e) => e.kind === 'call.status' && e.status === 'ended');
    expect(ended?.call).toEqual(callSummary(call));
    expect(ended?.call).toMatchObject({ id, status: 'ended', customer: { number: '+14155550123', name: 'Ada' }, endedAt: call.endedAt, cost: call.cost, endedReason: call.endedReason });
    expect(ended?.call).not.toHaveProperty('messages');
    const deliveries = events.filter((e): e is Extract<RecordEvent, { kind: 'delivery' }> => e.kind === 'delivery').map((e) => e.delivery as Delivery & { stripped?: boolean });
    const tool = deliveries.find((d) => d.type === 'tool-calls');
    expect(tool).toMatchObject({
      stripped: true,
      request: { headers: {}, body: { message: { type: 'tool-calls', toolCallList: [{ function: { name: 'book' } }] } } },
      answer: { results: [{ result: 'Booked.' }] },
    });
    expect(deliveries.every((d) => d.stripped && Object.keys(d.request.headers).length === 0)).toBe(true);
    expect(JSON.stringify(events)).not.toContain('shh');
    // The whole delivery is one GET away.
    const whole = (await (await fetch(`${emu.url}/__voice/deliveries/${tool?.id}`, { headers: H })).json()) as Delivery;
    expect(stripDelivery(whole)).toEqual(tool);
  });

  it('kinds=... sends only the events of those kinds, replayed and live', async () => {
    const id = await endedCall();
    const statuses = emu.record.list({ callId: id }).filter((e) => e.kind === 'call.status');
    expect(statuses.length).toBeGreaterThan(1);
    const got = await readStream(`/__voice/events?since=0&callId=${id}&batch=100&kinds=call.status`, (m) => m.reduce((n, x) => n + (JSON.parse(x.data) as unknown[]).length, 0) >= statuses.length);
    expect(got.flatMap((m) => JSON.parse(m.data) as RecordEvent[]).map((e) => e.seq)).toEqual(statuses.map((e) => e.seq));
    // Live: a log is left out, a delivery of the kinds asked for arrives.
    let opened!: () => void;
    const open = new Promise<void>((r) => (opened = r));
    const live = readStream('/__voice/events?batch=100&kinds=delivery,request', (m) => m.length > 0, opened);
    await open;
    emu.record.add({ kind: 'call.log', callId: 'c-kinds', text: 'left out' });
    await fetch(`${emu.url}/assistant?limit=1`, { headers: H });
    const [first] = await live;
    expect((JSON.parse(first?.data ?? '[]') as RecordEvent[]).map((e) => e.kind)).toEqual(['request']);
  });

  it('a reconnect resumes after its Last-Event-ID, even when the URL says since=0', async () => {
    const id = await endedCall();
    const all = emu.record.list({ callId: id });
    const cut = all[Math.floor(all.length / 2)] as RecordEvent;
    const rest = all.filter((e) => e.seq > cut.seq);
    const ctrl = new AbortController();
    const res = await fetch(`${emu.url}/__voice/events?since=0&callId=${id}&batch=100`, { signal: ctrl.signal, headers: { 'last-event-id': String(cut.seq) } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes(`id: ${String(all.at(-1)?.seq)}\n`)) text += new TextDecoder().decode((await reader.read()).value);
    ctrl.abort();
    const events = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .flatMap((l) => JSON.parse(l.slice(6)) as RecordEvent[]);
    expect(events.map((e) => e.seq)).toEqual(rest.map((e) => e.seq));
  });

  it('stripDelivery keeps the outcome of a delivery and drops its bodies', () => {
    const d: Delivery = {
      id: 'd1',
      callId: 'c1',
      type: 'end-of-call-report',
      url: 'http://127.0.0.1:1/h',
      sentAt: 'now',
      request: { headers: { 'x-vapi-secret': 's' }, body: { message: { type: 'end-of-call-report', call: {} } } },
      status: 500,
      answer: { a: 1 },
      error: 'HTTP 500',
      ms: 3,
    };
    expect(stripDelivery(d)).toEqual({
      id: 'd1',
      callId: 'c1',
      type: 'end-of-call-report',
      url: 'http://127.0.0.1:1/h',
      sentAt: 'now',
      request: { headers: {}, body: { message: { type: 'end-of-call-report' } } },
      status: 500,
      error: 'HTTP 500',
      ms: 3,
      stripped: true,
    });
  });
});
