// Transfer and handoff tools in scripted calls: a transferCall tool without destinations asks the
// server, and the answer's destination forwards the call as the platform does; a dynamic handoff
// asks the server and hands the call to the assistant the answer names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { startEmulator } from '../index.js';
import { toScenario } from './scenario.js';
import type { Emulator } from '../index.js';
import { startHook } from './testing.js';
import type { Hook } from './testing.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
let app: Hook;
const started: Emulator[] = [];
const SUBSCRIBED = ['status-update', 'transfer-update', 'transfer-destination-request', 'handoff-destination-request', 'assistant.started', 'end-of-call-report'];

async function emulator(turns: unknown[]): Promise<Emulator> {
  const emu = await startEmulator({ speed: 2000, scenario: toScenario({ turns }) });
  started.push(emu);
  return emu;
}
async function post(emu: Emulator, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}
async function get(emu: Emulator, path: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${emu.url}${path}`, { headers })).json()) as Record<string, unknown>;
}
const ofCall = (id: unknown) => app.received.filter((r) => (r.message.call as { id?: string } | undefined)?.id === id);

beforeAll(async () => {
  app = await startHook((r) => {
    if (r.message.type === 'transfer-destination-request') {
      if (r.path === '/refuse') return { json: { error: 'Nobody is in the office.' } };
      return { json: { destination: { type: 'number', number: '+15555550199', message: 'Putting you through now.' } } };
    }
    if (r.message.type === 'handoff-destination-request') return { json: { destination: { type: 'assistant', assistantName: 'Billing' } } };
    return undefined;
  });
});
afterAll(async () => {
  await Promise.all(started.map((e) => e.close()));
  await app.close();
});

describe('a transferCall tool without destinations', () => {
  it('asks the server, then forwards the call to the answer: transfer-update, forwarding, ended assistant-forwarded-call', async () => {
    const emu = await emulator([{ say: 'Can I speak to a person?', tools: ['transferCall'] }, { say: 'Never reached.' }]);
    const call = await post(emu, '/call', {
      assistant: {
        name: 'Front desk',
        firstMessage: 'Hello.',
        serverMessages: SUBSCRIBED,
        server: { url: `${app.url}/desk` },
        model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'transferCall' }] },
      },
      customer: { number: '+14155550140' },
    });
    await emu.calls.idle();
    const ended = await get(emu, `/call/${String(call.id)}`);
    expect(ended).toMatchObject({ status: 'ended', endedReason: 'assistant-forwarded-call', destination: { type: 'number', number: '+15555550199' } });
    expect((ended.artifact as { transcript: string }).transcript.split('\n')).toEqual(['AI: Hello.', 'User: Can I speak to a person?', 'AI: Putting you through now.']);
    const got = ofCall(call.id);
    const types = got.map((r) => (r.message.type === 'status-update' ? `status-update:${String(r.message.status)}` : r.message.type));
    expect(types.slice(types.indexOf('transfer-destination-request'))).toEqual([
      'transfer-destination-request',
      'transfer-update',
      'status-update:forwarding',
      'status-update:ended',
      'end-of-call-report',
    ]);
    expect(got.find((r) => r.message.type === 'transfer-destination-request')?.path).toBe('/desk');
    expect(got.find((r) => r.message.type === 'transfer-update')?.message.destination).toMatchObject({ type: 'number', number: '+15555550199' });
    expect(got.find((r) => r.message.status === 'forwarding')?.message.destination).toMatchObject({ number: '+15555550199' });
    expect(got.at(-1)?.message).toMatchObject({ type: 'end-of-call-report', endedReason: 'assistant-forwarded-call' });
    expect(await messageProblems(got.map((r) => r.message))).toEqual([]);
  }, 30_000);

  it('a refusal leaves the call where it was: the tool fails and the conversation goes on', async () => {
    const emu = await emulator([{ say: 'Transfer me.', tools: ['transferCall'] }, { say: 'OK, bye.' }]);
    const call = await post(emu, '/call', {
      assistant: {
        name: 'Desk',
        firstMessage: 'Hello.',
        serverMessages: SUBSCRIBED,
        server: { url: `${app.url}/refuse` },
        model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'transferCall' }] },
      },
      customer: { number: '+14155550141' },
    });
    await emu.calls.idle();
    const ended = await get(emu, `/call/${String(call.id)}`);
    expect(ended.endedReason).toBe('customer-ended-call');
    const results = (ended.messages as { role: string; result?: string }[]).filter((m) => m.role === 'tool_call_result');
    expect(results[0]?.result).toContain('Nobody is in the office.');
    expect(ofCall(call.id).some((r) => r.message.type === 'transfer-update')).toBe(false);
  }, 30_000);
});

describe('a transferCall tool with destinations', () => {
  it('forwards to the destination its argument names, without asking the server', async () => {
    const emu = await emulator([{ say: 'Sales, please.', tools: [{ name: 'transferCall', arguments: { destination: '+15555550177' } }] }]);
    const tool = {
      type: 'transferCall',
      destinations: [
        { type: 'number', number: '+15555550166' },
        { type: 'number', number: '+15555550177' },
      ],
    };
    const call = await post(emu, '/call', {
      assistant: { name: 'Desk', firstMessage: 'Hello.', serverMessages: SUBSCRIBED, server: { url: `${app.url}/fixed` }, model: { provider: 'openai', model: 'gpt-4o-mini', tools: [tool] } },
      customer: { number: '+14155550143' },
    });
    await emu.calls.idle();
    expect(await get(emu, `/call/${String(call.id)}`)).toMatchObject({ endedReason: 'assistant-forwarded-call', destination: { number: '+15555550177' } });
    const got = ofCall(call.id);
    expect(got.some((r) => r.message.type === 'transfer-destination-request')).toBe(false);
    expect(got.find((r) => r.message.type === 'transfer-update')?.message.destination).toMatchObject({ number: '+15555550177' });
  }, 30_000);
});

describe('a handoff tool with a dynamic destination', () => {
  it("sends handoff-destination-request with the arguments to the destination's server and hands the call to the named assistant", async () => {
    const emu = await emulator([
      { say: 'I have a billing question.', tools: [{ name: 'handoff', arguments: { destination: 'dynamic', customerIntent: 'existing-customer' } }] },
      { say: 'Thanks, bye.' },
    ]);
    const handoffTool = {
      type: 'handoff',
      destinations: [{ type: 'dynamic', server: { url: `${app.url}/router` } }],
      function: { name: 'handoff', parameters: { type: 'object', properties: { destination: { type: 'string', enum: ['dynamic'] }, customerIntent: { type: 'string' } } } },
    };
    const squad = await post(emu, '/squad', {
      members: [
        {
          assistant: {
            name: 'Reception',
            firstMessage: 'Reception.',
            serverMessages: SUBSCRIBED,
            server: { url: `${app.url}/reception` },
            model: { provider: 'openai', model: 'gpt-4o-mini', tools: [handoffTool] },
          },
        },
        { assistant: { name: 'Billing', firstMessage: 'Billing here.', serverMessages: SUBSCRIBED, server: { url: `${app.url}/billing` } } },
      ],
    });
    const call = await post(emu, '/call', { squadId: squad.id, customer: { number: '+14155550142' } });
    await emu.calls.idle();
    const ended = await get(emu, `/call/${String(call.id)}`);
    expect((ended.artifact as { transcript: string }).transcript.split('\n')).toEqual(['AI: Reception.', 'User: I have a billing question.', 'AI: Billing here.', 'User: Thanks, bye.']);
    const got = ofCall(call.id);
    const request = got.find((r) => r.message.type === 'handoff-destination-request');
    expect(request?.path).toBe('/router');
    expect(request?.message.parameters).toEqual({ destination: 'dynamic', customerIntent: 'existing-customer' });
    expect(got.find((r) => r.message.type === 'transfer-update')?.message).toMatchObject({ destination: { type: 'assistant', assistantName: 'Billing' }, toAssistant: { name: 'Billing' } });
    expect(got.filter((r) => r.message.type === 'assistant.started').map((r) => (r.message.newAssistant as { name: string }).name)).toEqual(['Reception', 'Billing']);
    expect(await messageProblems(got.map((r) => r.message))).toEqual([]);
  }, 30_000);
});
