// 100 simulated calls at once at --speed 50: every call ends, every delivery is made, and REST
// keeps answering meanwhile (the figures are in `npm run bench -- calls`).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { startHook } from './testing.js';
import type { Hook } from './testing.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
let emu: Emulator;
let app: Hook;

beforeAll(async () => {
  emu = await startEmulator({ speed: 50 });
  app = await startHook((r) => (r.message.type === 'tool-calls' ? { json: { results: [{ toolCallId: (r.message.toolCallList as { id: string }[])[0]?.id, result: 'Booked.' }] } } : undefined));
});
afterAll(async () => {
  await emu.close();
  await app.close();
});

it('runs 100 calls at once at --speed 50 to the end with every delivery made, REST answering throughout', async () => {
  const assistant = (await (
    await fetch(`${emu.url}/assistant`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Load',
        firstMessage: 'Hello!',
        server: { url: app.url },
        model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'book' } }] },
      }),
    })
  ).json()) as { id: string };
  const ids = await Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      const res = await fetch(`${emu.url}/call`, { method: 'POST', headers, body: JSON.stringify({ assistantId: assistant.id, customer: { number: `+1415555${1000 + i}` } }) });
      return ((await res.json()) as { id: string }).id;
    }),
  );
  const done = emu.calls.idle();
  let finished = false;
  void done.then(() => (finished = true));
  const statuses: number[] = [];
  let duringCalls = 0;
  while (!finished) {
    const res = await fetch(`${emu.url}/assistant/${assistant.id}`, { headers });
    statuses.push(res.status);
    await res.arrayBuffer();
    if (emu.calls.active > 0) duringCalls++;
  }
  await done;
  expect(duringCalls).toBeGreaterThan(0);
  expect(statuses.every((s) => s === 200)).toBe(true);
  const calls = (await (await fetch(`${emu.url}/call?limit=1000`, { headers })).json()) as { id: string; status: string; endedReason: string }[];
  const mine = calls.filter((c) => ids.includes(c.id));
  expect(mine).toHaveLength(100);
  expect(mine.every((c) => c.status === 'ended' && c.endedReason === 'customer-ended-call')).toBe(true);
  const deliveries = emu.record.deliveries().filter((d) => ids.includes(d.callId));
  expect(deliveries.length).toBe(app.received.length);
  expect(deliveries.filter((d) => d.error || d.status !== 200)).toEqual([]);
  expect(new Set(app.received.filter((r) => r.message.type === 'end-of-call-report').map((r) => (r.message.call as { id: string }).id)).size).toBe(100);
}, 120_000);
