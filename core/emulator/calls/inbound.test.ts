// Inbound calls: ringing a phone number, and the assistant-request the developer's server answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { startHook } from './testing.js';
import type { Hook, HookAnswer } from './testing.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
let emu: Emulator;
const hooks: Hook[] = [];

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
async function hook(answer: HookAnswer): Promise<Hook> {
  const h = await startHook((r) => (r.message.type === 'assistant-request' ? answer : undefined));
  hooks.push(h);
  return h;
}
/** Rings a number whose server is `h` and waits for the call to end. */
async function ringVia(h: Hook, timeoutSeconds?: number): Promise<Record<string, unknown>> {
  const pn = await post('/phone-number', { provider: 'byo-phone-number', number: '+14155550999', credentialId: 'cred-sip', server: { url: h.url, ...(timeoutSeconds ? { timeoutSeconds } : {}) } });
  const rung = await post('/__voice/ring', { phoneNumberId: pn.body.id, from: '+14155550100' });
  expect(rung.status).toBe(201);
  expect(rung.body).toMatchObject({ type: 'inboundPhoneCall', phoneNumberId: pn.body.id, customer: { number: '+14155550100' } });
  await emu.calls.idle();
  return (await (await fetch(`${emu.url}/call/${String(rung.body.id)}`, { headers })).json()) as Record<string, unknown>;
}

beforeAll(async () => {
  emu = await startEmulator({ speed: 2000 });
});
afterAll(async () => {
  await emu.close();
  await Promise.all(hooks.map((h) => h.close()));
});

describe('inbound calls through assistant-request', () => {
  it('runs the assistant the answer names, and its messages go to that assistant', async () => {
    const own = await startHook();
    hooks.push(own);
    const rh = await hook({ json: { assistant: { name: 'Inbound', firstMessage: 'Thanks for calling.', server: { url: own.url } } } });
    const call = await ringVia(rh);
    expect(call).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    expect((call.artifact as { transcript: string }).transcript).toMatch(/^AI: Thanks for calling\./);
    expect(rh.types()).toEqual(['assistant-request']);
    expect(own.received.filter((r) => r.message.type === 'status-update').map((r) => r.message.status)).toEqual(['in-progress', 'ended']);
    expect(own.types().at(-1)).toBe('end-of-call-report');
    expect(await messageProblems([...rh.received, ...own.received].map((r) => r.message))).toEqual([]);
  }, 30_000);

  it('answers with a stored assistant by id', async () => {
    const a = await post('/assistant', { name: 'Stored', firstMessage: 'Stored assistant here.' });
    const call = await ringVia(await hook({ json: { assistantId: a.body.id } }));
    expect(call.endedReason).toBe('customer-ended-call');
    expect((call.artifact as { transcript: string }).transcript).toMatch(/^AI: Stored assistant here\./);
  });

  it('runs a squad or a workflow the answer names', async () => {
    const squad = await post('/squad', { members: [{ assistant: { name: 'Front', firstMessage: 'Front desk, hi.' } }] });
    const bySquad = await ringVia(await hook({ json: { squadId: squad.body.id } }));
    expect((bySquad.artifact as { transcript: string }).transcript).toMatch(/^AI: Front desk, hi\./);
    const wf = await post('/workflow', { name: 'Flow', nodes: [{ type: 'conversation', name: 'start', isStart: true, prompt: 'Welcome to the flow. Ask why.' }], edges: [] });
    const byWorkflow = await ringVia(await hook({ json: { workflowId: wf.body.id } }));
    expect(byWorkflow.endedReason).toBe('assistant-ended-call');
    expect((byWorkflow.artifact as { transcript: string }).transcript).toMatch(/^AI: Welcome to the flow\./);
    const inlineSquad = await ringVia(await hook({ json: { squad: { members: [{ assistant: { name: 'Inline', firstMessage: 'Inline squad here.' } }] } } }));
    expect((inlineSquad.artifact as { transcript: string }).transcript).toMatch(/^AI: Inline squad here\./);
  });

  it('ends with assistant-request-returned-error when the answer is an error', async () => {
    const h = await hook({ json: { error: 'We are closed.' } });
    const call = await ringVia(h);
    expect(call).toMatchObject({ status: 'ended', endedReason: 'assistant-request-returned-error' });
    const deliveries = (await (await fetch(`${emu.url}/__voice/deliveries?callId=${String(call.id)}`)).json()) as { type: string; answer: unknown }[];
    expect(deliveries.map((d) => d.type)).toEqual(['assistant-request', 'status-update', 'end-of-call-report']);
    expect(deliveries[0]).toMatchObject({ answer: { error: 'We are closed.' } });
    expect(h.received.at(-1)?.message).toMatchObject({ type: 'end-of-call-report', endedReason: 'assistant-request-returned-error' });
  });

  it('ends with assistant-request-failed when the answer is garbage', async () => {
    const call = await ringVia(await hook({ text: '<html>oops' }));
    expect(call.endedReason).toBe('assistant-request-failed');
    const deliveries = (await (await fetch(`${emu.url}/__voice/deliveries?callId=${String(call.id)}`)).json()) as { type: string; error: string }[];
    expect(deliveries[0]?.type).toBe('assistant-request');
    expect(deliveries[0]?.error).toMatch(/malformed JSON/);
  });

  it('ends with assistant-request-failed when the answer comes after server.timeoutSeconds', async () => {
    const call = await ringVia(await hook({ delayMs: 1500, json: { assistantId: 'late' } }), 1);
    expect(call.endedReason).toBe('assistant-request-failed');
  }, 10_000);

  it('ends with assistant-request-returned-invalid-assistant for an unknown assistantId', async () => {
    expect((await ringVia(await hook({ json: { assistantId: 'no-such-assistant' } }))).endedReason).toBe('assistant-request-returned-invalid-assistant');
  });

  it('forwards on a destination', async () => {
    const call = await ringVia(await hook({ json: { destination: { type: 'number', number: '+14155550000' } } }));
    expect(call).toMatchObject({ endedReason: 'assistant-request-returned-forwarding-phone-number', destination: { number: '+14155550000' } });
  });

  it("answers with the number's own assistant without asking", async () => {
    const a = await post('/assistant', { name: 'Own', firstMessage: 'Own number assistant.' });
    const h = await hook({ json: { error: 'should not be asked' } });
    const pn = await post('/phone-number', { provider: 'byo-phone-number', number: '+14155550998', credentialId: 'cred-sip', assistantId: a.body.id, server: { url: h.url } });
    expect(pn.status).toBe(201);
    const rung = await post('/__voice/ring', { phoneNumberId: pn.body.id });
    expect(rung.status).toBe(201);
    await emu.calls.idle();
    const call = (await (await fetch(`${emu.url}/call/${String(rung.body.id)}`, { headers })).json()) as Record<string, unknown>;
    expect(call.endedReason).toBe('customer-ended-call');
    expect(h.types()).not.toContain('assistant-request');
    expect(h.types()).toContain('end-of-call-report');
  });

  it('refuses to ring an unknown number with a 404', async () => {
    const res = await post('/__voice/ring', { phoneNumberId: 'nope' });
    expect(res.status).toBe(404);
    expect((await post('/__voice/ring', {})).status).toBe(400);
  });
});
