// A campaign's life besides dialling: what a create refuses, its schedule window, pre-dial failures,
// a dial plan's numbers, stopping it early (PATCH, DELETE) and a reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { messageProblems } from '../../messages/testing.js';
import { startHook, until } from '../calls/testing.js';
import type { Hook } from '../calls/testing.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk deep JSON
type Loose = Record<string, any>;
const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
const ALL = ['campaign.started', 'campaign.cancelled', 'campaign.ended', 'campaign.archived', 'contact.dispatched', 'contact.completed', 'contact.failed', 'contact.skipped', 'contact.predial-failed'];

let emu: Emulator;
let hook: Hook;
let numbers: string[];
let assistantId: string;

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; body: Loose }> {
  const res = await fetch(`${emu.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Loose };
}

const leads = (n: number, from = 0): { number: string }[] => Array.from({ length: n }, (_, i) => ({ number: `+1415555${String(1000 + from + i)}` }));
const events = (campaignId: string): string[] => hook.received.filter((r) => r.message.campaignId === campaignId && r.message.type === 'campaign.event').map((r) => String(r.message.eventType));

beforeAll(async () => {
  emu = await startEmulator({ speed: 400 });
  // The pre-dial server answers by number: ...1000 eligible, ...1001 no boolean, ...1002 an error, others eligible.
  hook = await startHook((r) => {
    if (r.message.type !== 'campaign.predial') return undefined;
    const n = String((r.message.contact as Loose).number);
    if (n.endsWith('1001')) return { json: { eligible: 'yes' } };
    if (n.endsWith('1002')) return { status: 500, json: { message: 'down' } };
    return { json: { eligible: true } };
  });
  numbers = [(await send('POST', '/phone-number', { provider: 'vapi', name: 'A' })).body.id, (await send('POST', '/phone-number', { provider: 'vapi', name: 'B' })).body.id];
  assistantId = (await send('POST', '/assistant', { name: 'Caller' })).body.id;
});
afterAll(async () => {
  await emu.close();
  await hook.close();
});

describe('campaigns on voice dev', () => {
  it('refuses what the platform refuses, and stores nothing', async () => {
    const before = (await send('GET', '/campaign?limit=1000')).body.results.length;
    const both = await send('POST', '/campaign', { name: 'x', phoneNumberId: numbers[0], dialPlan: [{ phoneNumberId: numbers[1], customers: leads(1) }] });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('phoneNumberId and dialPlan are mutually exclusive');
    expect((await send('POST', '/campaign', { name: 'x', customers: leads(1) })).body.message).toContain('phoneNumberId is required when dialPlan is not provided');
    expect((await send('POST', '/campaign', { name: 'x', phoneNumberId: numbers[0], customers: leads(1), predialPlan: {} })).body.message[0]).toMatch(/predialPlan requires server/);
    expect((await send('POST', '/campaign', { name: 'x', phoneNumberId: numbers[0], customers: leads(1), maxConcurrency: 0 })).status).toBe(400);
    expect((await send('GET', '/campaign?limit=1000')).body.results).toHaveLength(before);
  });

  it('records a pre-dial failure for an answer without a boolean eligible and for an error, and dials the rest with their dial plan numbers', async () => {
    const created = await send('POST', '/campaign', {
      name: 'Plan',
      assistantId,
      dialPlan: [
        { phoneNumberId: numbers[0], customers: leads(2) },
        { phoneNumberId: numbers[1], customers: leads(2, 2) },
      ],
      server: { url: hook.url },
      predialPlan: {},
      serverMessages: ALL,
    });
    expect(created.status).toBe(201);
    await emu.campaigns.finished(created.body.id);
    const contacts = (await send('GET', `/v2/campaign/${created.body.id}/contacts`)).body.results as Loose[];
    expect(contacts.map((c) => c.status)).toEqual(['contact.completed', 'contact.predial-failed', 'contact.predial-failed', 'contact.completed']);
    const calls = contacts.filter((c) => c.callId).map((c) => emu.campaigns.contacts(created.body.id).find((x) => x.id === c.id));
    expect(calls.map((c) => c?.phoneNumberId)).toEqual([numbers[0], numbers[1]]);
    const failed = hook.received.filter((r) => r.message.eventType === 'contact.predial-failed').map((r) => (r.message.data as Loose).error);
    expect(failed).toEqual(['the answer has no boolean "eligible"', 'HTTP 500']);
    expect(await messageProblems(hook.received.map((r) => r.message))).toEqual([]);
  });

  it('waits for schedulePlan.earliestAt on the simulated clock and skips what latestAt leaves undialled', async () => {
    const soon = Date.now() + 60_000;
    const created = await send('POST', '/v2/campaign', {
      name: 'Window',
      assistantId,
      phoneNumberId: numbers[0],
      maxConcurrency: 1,
      customers: leads(6, 10),
      // One call lasts about half a simulated minute: the window closes after a few.
      schedulePlan: { earliestAt: new Date(soon).toISOString(), latestAt: new Date(soon + 70_000).toISOString() },
    });
    expect(created.body.status).toBe('scheduled');
    const done = await emu.campaigns.finished(created.body.id);
    expect(done?.status).toBe('ended');
    const contacts = (await send('GET', `/v2/campaign/${created.body.id}/contacts`)).body.results as Loose[];
    const dispatched = contacts.filter((c) => c.dispatchedAt).map((c) => Date.parse(c.dispatchedAt));
    expect(Math.min(...dispatched)).toBeGreaterThanOrEqual(soon);
    expect(Math.max(...dispatched)).toBeLessThan(soon + 70_000);
    expect(contacts.filter((c) => c.status === 'contact.completed').length).toBeGreaterThan(0);
    expect(contacts.filter((c) => c.status === 'contact.skipped').length).toBeGreaterThan(0);
    expect(contacts.every((c) => c.status === 'contact.completed' || c.status === 'contact.skipped')).toBe(true);
  });

  it('stops early on PATCH status cancelled: calls under way finish, no new contact is dialled; DELETE archives it', async () => {
    const created = await send('POST', '/v2/campaign', {
      name: 'Stop',
      assistantId,
      phoneNumberId: numbers[0],
      maxConcurrency: 2,
      customers: leads(8, 20),
      server: { url: hook.url },
      serverMessages: ALL,
    });
    const id = created.body.id as string;
    await until(() => (emu.campaigns.contacts(id).filter((c) => c.status === 'contact.dispatched').length === 2 ? true : undefined));
    expect((await send('PATCH', `/v2/campaign/${id}`, { assistantId })).status).toBe(400);
    const stopped = await send('PATCH', `/v2/campaign/${id}`, { status: 'cancelled' });
    expect(stopped.body).toMatchObject({ status: 'cancelled', endedReason: 'campaign.in-progress.ended-by-user', callsCounterScheduled: 0 });
    await emu.campaigns.finished(id);
    const contacts = emu.campaigns.contacts(id);
    expect(contacts.filter((c) => c.callId)).toHaveLength(2);
    expect(contacts.filter((c) => c.status === 'contact.completed')).toHaveLength(2);
    expect(contacts.filter((c) => c.status === 'contact.pending')).toHaveLength(6);
    expect((await send('PATCH', `/v2/campaign/${id}`, { status: 'cancelled' })).status).toBe(400);
    const archived = await send('DELETE', `/v2/campaign/${id}`);
    expect(archived.body).toMatchObject({ id, status: 'archived' });
    expect((await send('GET', `/campaign/${id}`)).body.status).toBe('archived');
    await emu.campaigns.finished(id);
    expect(events(id)).toEqual(['campaign.started', 'contact.dispatched', 'contact.dispatched', 'campaign.cancelled', 'contact.completed', 'contact.completed', 'campaign.archived']);
  });

  it('a scheduled campaign deleted before it starts is cancelled and archived without dialling; a reset drops what runs', async () => {
    const later = await send('POST', '/campaign', {
      name: 'Later',
      assistantId,
      phoneNumberId: numbers[0],
      customers: leads(2, 40),
      schedulePlan: { earliestAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    const gone = await send('DELETE', `/campaign/${later.body.id}`);
    expect(gone.body).toMatchObject({ status: 'archived', endedReason: 'campaign.scheduled.ended-by-user' });
    expect(emu.campaigns.contacts(later.body.id).every((c) => c.status === 'contact.pending' && !c.callId)).toBe(true);
    const running = await send('POST', '/campaign', { name: 'Reset', assistantId, phoneNumberId: numbers[0], customers: leads(3, 50) });
    await until(() => (emu.campaigns.contacts(running.body.id).some((c) => c.callId) ? true : undefined));
    emu.reset();
    expect(emu.campaigns.find(running.body.id)).toBeUndefined();
    expect((await send('GET', '/campaign?limit=1000')).body.results).toEqual([]);
  });
});
