// The messages the platform sends at moments of its own: `phone-call-control` instead of hanging up
// or forwarding itself, `call.delete.failed` for a call that cannot be deleted yet, and
// `language-change-detected` when a multilingual transcriber hears another language. Each once,
// where the platform would send it, valid by the published schemas.
import { afterEach, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import type { Scenario } from './scenario.js';
import { startHook, until } from './testing.js';
import type { Hook } from './testing.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk deep JSON
type Loose = Record<string, any>;
const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.map((o) => o.close()));
  open = [];
});

async function setup(scenario: Scenario, speed = 500): Promise<{ emu: Emulator; hook: Hook; send: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Loose }> }> {
  const emu = await startEmulator({ speed, scenario });
  const hook = await startHook();
  open.push(emu, hook);
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emu.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Loose };
  };
  return { emu, hook, send };
}

const of = (hook: Hook, type: string): Loose[] => hook.received.filter((r) => r.message.type === type).map((r) => r.message);

describe('phone-call-control', () => {
  it('hands the hang-up to the server that asked for it, once, and the call ends as hung up', async () => {
    const { emu, hook, send } = await setup({ turns: [{ say: 'Hello.' }, { say: 'That is all.', endCall: true }] });
    const call = await send('POST', '/call', {
      assistant: { name: 'A', server: { url: hook.url }, serverMessages: ['phone-call-control', 'end-of-call-report'] },
      customer: { number: '+14155550100' },
    });
    await emu.calls.idle();
    expect(of(hook, 'phone-call-control').map((m) => m.request)).toEqual(['hang-up']);
    expect(hook.types(call.body.id)).toEqual(['phone-call-control', 'end-of-call-report']);
    expect((await send('GET', `/call/${call.body.id}`)).body.endedReason).toBe('assistant-ended-call');
    expect(await messageProblems(hook.received.map((r) => r.message))).toEqual([]);
  });

  it('hands a transfer to a number to the server instead of the platform forwarding it (no transfer-update)', async () => {
    const { emu, hook, send } = await setup({ turns: [{ say: 'A person, please.', tools: [{ name: 'transferCall' }] }] });
    const transfer = { type: 'transferCall', destinations: [{ type: 'number', number: '+15555550199' }] };
    const assistant = { name: 'A', model: { provider: 'openai', model: 'gpt-4o', tools: [transfer] }, server: { url: hook.url }, serverMessages: ['phone-call-control', 'transfer-update'] };
    const call = await send('POST', '/call', { assistant, customer: { number: '+14155550100' } });
    await emu.calls.idle();
    expect(of(hook, 'phone-call-control')).toEqual([expect.objectContaining({ request: 'forward', destination: { type: 'number', number: '+15555550199' } })]);
    expect(of(hook, 'transfer-update')).toEqual([]);
    expect((await send('GET', `/call/${call.body.id}`)).body).toMatchObject({ endedReason: 'assistant-forwarded-call', destination: { number: '+15555550199' } });
    expect(await messageProblems(hook.received.map((r) => r.message))).toEqual([]);
  });

  it('is not sent to a server that did not ask for it: the platform hangs up itself', async () => {
    const { emu, hook, send } = await setup({ turns: [{ say: 'Bye.', endCall: true }] });
    await send('POST', '/call', { assistant: { name: 'A', server: { url: hook.url } }, customer: { number: '+14155550100' } });
    await emu.calls.idle();
    expect(of(hook, 'phone-call-control')).toEqual([]);
  });
});

describe('call.delete.failed', () => {
  it('a running call refuses deletion and its server hears so once; once ended it deletes', async () => {
    const { emu, hook, send } = await setup({ turns: [{ say: 'Hello.', pauseSeconds: 60 }] }, 5);
    const call = await send('POST', '/call', { assistant: { name: 'A', server: { url: hook.url }, serverMessages: ['call.delete.failed', 'call.deleted'] }, customer: { number: '+14155550100' } });
    await emu.waitForCall(call.body.id, 'in-progress');
    const refused = await send('DELETE', `/call/${call.body.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.message[0]).toMatch(/can be deleted once it has ended/);
    await until(() => (of(hook, 'call.delete.failed').length ? true : undefined));
    expect(of(hook, 'call.delete.failed')).toEqual([expect.objectContaining({ call: expect.objectContaining({ id: call.body.id }) })]);
    emu.calls.end(call.body.id, 'operator');
    await emu.calls.idle();
    expect((await send('DELETE', `/call/${call.body.id}`)).status).toBe(200);
    await emu.calls.idle();
    expect(hook.types()).toEqual(['call.delete.failed', 'call.deleted']);
    expect(await messageProblems(hook.received.map((r) => r.message))).toEqual([]);
  });
});

describe('language-change-detected', () => {
  it('a multilingual transcriber hearing a line in Spanish says so once; a single-language one never does', async () => {
    const scenario = { turns: [{ say: 'Hello.' }, { say: 'Hola, quiero una cita.', language: 'es' }, { say: 'Gracias.', language: 'es' }] };
    const { emu, hook, send } = await setup(scenario);
    const subscribed = ['language-change-detected'];
    await send('POST', '/call', {
      assistant: { name: 'Multi', transcriber: { provider: 'deepgram', language: 'multi' }, server: { url: hook.url }, serverMessages: subscribed },
      customer: { number: '+14155550100' },
    });
    await send('POST', '/call', {
      assistant: { name: 'English', transcriber: { provider: 'deepgram', language: 'en' }, server: { url: hook.url }, serverMessages: subscribed },
      customer: { number: '+14155550101' },
    });
    await emu.calls.idle();
    const changes = of(hook, 'language-change-detected');
    expect(changes.map((m) => [m.assistant.name, m.language])).toEqual([['Multi', 'es']]);
    expect(await messageProblems(changes)).toEqual([]);
  });
});
