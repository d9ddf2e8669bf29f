import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from 'voice-agent-core/emulator';
import { validateRequest } from '#core/schemas/validate';
import { ensureLocalAssistant, LOCAL_ASSISTANT, LOCAL_KEY, localAssistantState, startCallTarget, warmLocalEmulator } from './platform.js';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

const auth = { authorization: `Bearer ${LOCAL_KEY}`, 'content-type': 'application/json' };
const SERVER_FIELDS = ['id', 'orgId', 'createdAt', 'updatedAt'];
const own = (rec: Record<string, unknown>) => Object.fromEntries(Object.entries(rec).filter(([k]) => !SERVER_FIELDS.includes(k)));

describe("the demo's assistant on an emulator it starts", () => {
  it('is the object POST /assistant stores for LOCAL_ASSISTANT, and the one ensureLocalAssistant finds', async () => {
    // The full path: a plain emulator, the assistant created over HTTP (body checked against the schemas).
    const plain = await startEmulator({ port: 0 });
    closers.push(() => plain.close());
    const created = await fetch(`${plain.url}/assistant`, { method: 'POST', headers: auth, body: JSON.stringify(LOCAL_ASSISTANT) });
    expect(created.status).toBe(201);
    const viaHttp = (await created.json()) as Record<string, unknown>;

    // The fast path: the emulator starts with it.
    const started = await startCallTarget({ apiKey: '', apiUrl: '', assistantId: '', phoneNumberId: '', port: 0, withAssistant: true, log: () => undefined });
    closers.push(() => started.close());
    expect(started.emulator).toBe(true);
    const id = started.assistantId as string;
    const seeded = (await (await fetch(`${started.target.baseUrl}/assistant/${id}`, { headers: auth })).json()) as Record<string, unknown>;
    expect(Object.keys(seeded).sort()).toEqual(Object.keys(viaHttp).sort());
    expect(own(seeded)).toEqual(own(viaHttp));
    for (const field of ['createdAt', 'updatedAt']) expect(new Date(seeded[field] as string).toISOString()).toBe(seeded[field]);
    // It belongs to the emulator's org, and is the one a later lookup by name returns.
    const orgs = (await (await fetch(`${started.target.baseUrl}/org`, { headers: auth })).json()) as { id: string }[];
    expect(orgs.map((o) => o.id)).toContain(seeded.orgId);
    expect(await ensureLocalAssistant(started.target.baseUrl)).toBe(id);
    const listed = (await (await fetch(`${started.target.baseUrl}/assistant`, { headers: auth })).json()) as unknown[];
    expect(listed).toHaveLength(1);
  });

  it('is left out when not asked for', async () => {
    const started = await startCallTarget({ apiKey: '', apiUrl: '', assistantId: '', phoneNumberId: '', port: 0, log: () => undefined });
    closers.push(() => started.close());
    expect(started.assistantId).toBeUndefined();
    expect(await (await fetch(`${started.target.baseUrl}/assistant`, { headers: auth })).json()).toEqual([]);
  });

  it('is a body the published request schema accepts, the one the warm-up compiles', async () => {
    expect(await validateRequest('POST', '/assistant', LOCAL_ASSISTANT)).toEqual([]);
    await expect(warmLocalEmulator()).resolves.toBeUndefined();
  });

  it('gets fresh ids each time', () => {
    const [a, b] = [localAssistantState(), localAssistantState()];
    expect(a.assistantId).not.toBe(b.assistantId);
    expect(a.snapshot.orgId).not.toBe(b.snapshot.orgId);
  });
});
