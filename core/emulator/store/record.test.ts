// The record: numbered events, filters, deliveries, listeners, and bounds that keep a call's story.
import { expect, it } from 'vitest';
import { EmulatorRecord } from './record.js';
import type { Delivery } from './record.js';

const delivery = (id: string, callId: string): Delivery => ({ id, callId, type: 'hang', url: 'http://x', sentAt: '', request: { headers: {}, body: { message: {} } }, ms: 1 });

it('numbers events, filters by call and since, lists deliveries and tells listeners', () => {
  const record = new EmulatorRecord();
  const seen: string[] = [];
  const stop = record.subscribe((e) => seen.push(e.kind));
  record.add({ kind: 'call.status', callId: 'a', status: 'queued' });
  record.add({ kind: 'request', method: 'GET', path: '/call', status: 200, ms: 1 });
  record.add({ kind: 'delivery', callId: 'b', delivery: delivery('d1', 'b') });
  stop();
  record.add({ kind: 'call.status', callId: 'a', status: 'ended', endedReason: 'voicemail' });
  expect(seen).toEqual(['call.status', 'request', 'delivery']);
  expect(record.list().map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  expect(record.list({ callId: 'a' }).map((e) => e.seq)).toEqual([1, 4]);
  expect(record.list({ since: 2 }).map((e) => e.seq)).toEqual([3, 4]);
  expect(record.deliveries('b').map((d) => d.id)).toEqual(['d1']);
  expect(record.deliveries('a')).toEqual([]);
});

it("keeps a call's events when REST requests flood in", () => {
  const record = new EmulatorRecord();
  record.add({ kind: 'call.status', callId: 'a', status: 'queued' });
  for (let i = 0; i < 10_000; i++) record.add({ kind: 'request', method: 'GET', path: '/x', status: 200, ms: 1 });
  expect(record.list({ callId: 'a' })).toHaveLength(1);
  // At most 5,000: once full, the oldest twentieth goes at once, and the newest are always there.
  const requests = record.list().filter((e) => e.kind === 'request');
  expect(requests.length).toBeLessThanOrEqual(5_000);
  expect(requests.length).toBeGreaterThanOrEqual(4_750);
  expect(requests.at(-1)?.seq).toBe(10_001);
});

it('survives a listener that throws', () => {
  const record = new EmulatorRecord();
  record.subscribe(() => {
    throw new Error('broken view');
  });
  expect(record.add({ kind: 'call.log', callId: 'a', text: 'x' }).seq).toBe(1);
});
