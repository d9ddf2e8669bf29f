// A campaign dialling on the simulated clock: concurrency, pre-dial answers, counters at every step,
// contacts' outcomes and the campaign's own messages, against a loopback server standing in for the
// developer's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Emulator, RecordEvent } from '../index.js';
import { messageProblems } from '../../messages/testing.js';
import { startHook } from '../calls/testing.js';
import type { Hook } from '../calls/testing.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk deep JSON
type Loose = Record<string, any>;
const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
const REFUSED = new Set(['+14155550104', '+14155550111']);
const EVENTS = ['campaign.started', 'campaign.ended', 'contact.dispatched', 'contact.completed', 'contact.failed', 'contact.skipped', 'contact.predial-failed'];

let emu: Emulator;
let hook: Hook;
let phoneNumberId: string;
let assistantId: string;

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; body: Loose }> {
  const res = await fetch(`${emu.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Loose };
}

function customers(n: number): { number: string; name: string }[] {
  return Array.from({ length: n }, (_, i) => ({ number: `+141555501${String(i).padStart(2, '0')}`, name: `Lead ${i}` }));
}

beforeAll(async () => {
  emu = await startEmulator({ speed: 400 });
  hook = await startHook((r) => (r.message.type === 'campaign.predial' ? { json: { eligible: !REFUSED.has(String((r.message.contact as Loose).number)) } } : undefined));
  phoneNumberId = (await send('POST', '/phone-number', { provider: 'vapi', name: 'Outbound line' })).body.id;
  assistantId = (await send('POST', '/assistant', { name: 'Caller', firstMessage: 'Hi, this is Acme calling.' })).body.id;
});
afterAll(async () => {
  await emu.close();
  await hook.close();
});

describe('a 20-customer campaign with maxConcurrency 3 and a pre-dial server', () => {
  it('never has more than 3 calls at once, keeps every counter right at each step, and leaves the two refused contacts undialled', async () => {
    // Each step is checked as it happens (the record tells every change synchronously).
    const statusOf = new Map<string, string>();
    const problems: string[] = [];
    let campaignId = '';
    let most = 0;
    let steps = 0;
    const check = (e: RecordEvent): void => {
      if (e.kind === 'call.status') statusOf.set(e.callId, e.status);
      if (!campaignId || (e.kind !== 'call.status' && e.kind !== 'campaign')) return;
      const c = emu.campaigns.find(campaignId);
      if (!c) return;
      const contacts = emu.campaigns.contacts(campaignId);
      const calls = contacts.filter((x) => typeof x.callId === 'string').map((x) => statusOf.get(x.callId as string) ?? 'queued');
      const running = calls.filter((s) => s !== 'ended').length;
      most = Math.max(most, running);
      const expected = {
        callsCounterScheduled: c.status === 'in-progress' || c.status === 'scheduled' ? contacts.filter((x) => x.status === 'contact.pending').length : 0,
        callsCounterQueued: calls.filter((s) => s === 'queued' || s === 'ringing').length,
        callsCounterInProgress: calls.filter((s) => s === 'in-progress' || s === 'forwarding').length,
        callsCounterEnded: calls.filter((s) => s === 'ended').length,
        callsCounterEndedVoicemail: 0,
      };
      const { callsCounterScheduled, callsCounterQueued, callsCounterInProgress, callsCounterEnded, callsCounterEndedVoicemail } = emu.campaigns.view(c);
      const got = { callsCounterScheduled, callsCounterQueued, callsCounterInProgress, callsCounterEnded, callsCounterEndedVoicemail };
      steps++;
      if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push(`step ${steps}: ${JSON.stringify(got)} != ${JSON.stringify(expected)}`);
      if (running > 3) problems.push(`step ${steps}: ${running} calls at once`);
    };
    const stop = emu.record.subscribe(check);
    const created = await send('POST', '/v2/campaign', {
      name: 'Twenty leads',
      assistantId,
      phoneNumberId,
      maxConcurrency: 3,
      customers: customers(20),
      server: { url: `${hook.url}/campaigns` },
      predialPlan: { enabled: true },
      serverMessages: EVENTS,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    campaignId = created.body.id;
    expect(created.body).toMatchObject({ status: 'scheduled', callsCounterScheduled: 20, callsCounterQueued: 0, callsCounterEnded: 0 });
    const done = await emu.campaigns.finished(campaignId);
    stop();

    expect(problems).toEqual([]);
    expect(steps).toBeGreaterThan(100);
    expect(most).toBe(3);
    expect(done).toMatchObject({ status: 'ended', endedReason: 'campaign.ended.success' });
    const got = await send('GET', `/v2/campaign/${campaignId}?includeCounters=true`);
    expect(got.body).toMatchObject({
      status: 'ended',
      callsCounterScheduled: 0,
      callsCounterQueued: 0,
      callsCounterInProgress: 0,
      callsCounterEnded: 18,
      contactCounters: { pending: 0, dispatched: 0, completed: 18, failed: 0, skipped: 2, predialFailed: 0 },
      callMetrics: { dialed: 18, connected: 18 },
    });
    expect(Object.keys(got.body.calls)).toHaveLength(18);

    const contacts = (await send('GET', `/v2/campaign/${campaignId}/contacts?limit=100`)).body.results as Loose[];
    expect(contacts.map((c) => c.number)).toEqual(customers(20).map((c) => c.number));
    for (const c of contacts) {
      if (REFUSED.has(c.number)) expect(c).toEqual({ id: c.id, number: c.number, name: c.name, status: 'contact.skipped' });
      else expect(c).toMatchObject({ status: 'contact.completed', callId: expect.any(String), dispatchedAt: expect.any(String), endedReason: 'customer-ended-call' });
    }
    // Nothing ever rang the refused contacts.
    const calls = (await send('GET', '/call?limit=1000')).body as unknown as Loose[];
    const dialled = calls.filter((c) => c.campaignId === campaignId);
    expect(dialled).toHaveLength(18);
    expect(dialled.filter((c) => REFUSED.has(c.customer.number))).toEqual([]);
    expect(dialled.every((c) => c.phoneNumberId === phoneNumberId && c.assistantId === assistantId && c.type === 'outboundPhoneCall')).toBe(true);

    // The campaign's server got a pre-dial check per contact, then the events it asked for, each valid.
    const mine = hook.received.filter((r) => r.message.campaignId === campaignId).map((r) => r.message);
    const count = (type: string): number => mine.filter((m) => m.type === type || m.eventType === type).length;
    expect(count('campaign.predial')).toBe(20);
    expect([count('campaign.started'), count('contact.dispatched'), count('contact.completed'), count('contact.skipped'), count('campaign.ended')]).toEqual([1, 18, 18, 2, 1]);
    expect(mine.find((m) => m.eventType === 'campaign.ended')?.data).toEqual({ endedReason: 'campaign.ended.success' });
    expect(mine.find((m) => m.eventType === 'contact.completed')?.data).toEqual({ contactId: expect.any(String), callId: expect.any(String), endedReason: 'customer-ended-call' });
    expect(await messageProblems(mine)).toEqual([]);
    expect(emu.deliveries().filter((d) => d.callId === campaignId)).toHaveLength(mine.length);
  }, 60_000);
});
