// The messages the platform sends beyond a call's conversation, through the real `voice` process
// against an emulator: chat and session lifecycle, call deletion, and the transfer and handoff
// destination requests of a scripted squad call. Each reaches the subscribed server and fits the
// derived published schemas; the transfer answer moves the call as the platform does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageProblems } from '#core/messages/testing';
import { devServer, messageOf } from './dev-server.js';
import type { DevServer, Got } from './dev-server.js';
import { fileHarness, json } from './harness.js';

const h = fileHarness({
  speed: 2000,
  scenario: {
    turns: [
      { say: 'I have a question about my bill.', tools: [{ name: 'handoff', arguments: { destination: 'dynamic', customerIntent: 'existing-customer' } }] },
      { say: 'Can I talk to a person, please?', tools: [{ name: 'transferCall' }] },
      { say: 'Never said: the call was transferred.' },
    ],
  },
});
let server: DevServer;

const EIGHT = ['chat.created', 'chat.deleted', 'session.created', 'session.updated', 'session.deleted', 'call.deleted', 'transfer-destination-request', 'handoff-destination-request'];
const SUBSCRIBED = [...EIGHT, 'transfer-update', 'status-update', 'end-of-call-report', 'assistant.started'];

beforeAll(async () => {
  server = await devServer((g) => {
    const type = messageOf(g).type;
    if (type === 'transfer-destination-request') return { body: { destination: { type: 'number', number: '+15555550199', message: 'Putting you through to our team.' } } };
    if (type === 'handoff-destination-request') return { body: { destination: { type: 'assistant', assistantName: 'Billing' } } };
    return { body: {} };
  });
});
afterAll(() => server.close());

const received = (type: string): Got[] => server.got.filter((g) => messageOf(g).type === type);

async function create(args: string[], body: unknown): Promise<{ id: string }> {
  const r = await h.current.voice([...args, '-f', '-', '--json'], { input: JSON.stringify(body) });
  expect(r.exitCode, r.stderr).toBe(0);
  return json<{ id: string }>(r);
}

describe('messages sent when the platform sends them', () => {
  it("chat and session lifecycle go to the assistant's server when it subscribes", async () => {
    const desk = await create(['assistant', 'create'], { name: 'Desk', server: { url: `${server.url}/desk` }, serverMessages: SUBSCRIBED });
    const chat = await create(['chat', 'create'], { assistantId: desk.id, input: 'Hello there' });
    expect((await h.current.voice(['chat', 'delete', chat.id, '--yes'])).exitCode).toBe(0);
    const session = await create(['session', 'create'], { assistantId: desk.id, name: 'first' });
    const updated = await h.current.voice(['session', 'update', session.id, '--set', 'name=second', '--json']);
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect((await h.current.voice(['session', 'delete', session.id, '--yes'])).exitCode).toBe(0);
    await h.current.emu.calls.idle();

    expect(received('chat.created').map((g) => g.path)).toEqual(['/desk']);
    expect(messageOf(received('chat.created')[0])).toMatchObject({ chat: { id: chat.id, assistantId: desk.id }, assistant: { name: 'Desk' } });
    expect(messageOf(received('chat.deleted')[0])).toMatchObject({ chat: { id: chat.id } });
    expect(messageOf(received('session.created')[0])).toMatchObject({ session: { id: session.id, name: 'first' } });
    expect(messageOf(received('session.updated')[0])).toMatchObject({ session: { id: session.id, name: 'second' } });
    expect(messageOf(received('session.deleted')[0])).toMatchObject({ session: { id: session.id } });
    for (const type of ['chat.deleted', 'session.created', 'session.updated', 'session.deleted'])
      expect(
        received(type).map((g) => g.path),
        type,
      ).toEqual(['/desk']);
    // The platform's default serverMessages has none of them: an assistant that does not ask gets nothing.
    const quiet = await create(['assistant', 'create'], { name: 'Quiet', server: { url: `${server.url}/quiet` } });
    await create(['chat', 'create'], { assistantId: quiet.id, input: 'Hello' });
    await create(['session', 'create'], { assistantId: quiet.id });
    await h.current.emu.calls.idle();
    expect(server.got.filter((g) => g.path === '/quiet')).toEqual([]);
  });

  it('a squad call asks for its handoff and transfer destinations, follows the answers, and its deletion is announced', async () => {
    const reception = {
      name: 'Reception',
      firstMessage: 'Reception, hello.',
      server: { url: `${server.url}/reception` },
      serverMessages: SUBSCRIBED,
      model: {
        provider: 'openai',
        model: 'gpt-4o-mini',
        tools: [
          {
            type: 'handoff',
            destinations: [{ type: 'dynamic', server: { url: `${server.url}/router` } }],
            function: { name: 'handoff', parameters: { type: 'object', properties: { destination: { type: 'string', enum: ['dynamic'] }, customerIntent: { type: 'string' } } } },
          },
        ],
      },
    };
    const billing = {
      name: 'Billing',
      firstMessage: 'Billing here.',
      server: { url: `${server.url}/billing` },
      serverMessages: SUBSCRIBED,
      model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'transferCall' }] },
    };
    const squad = await create(['squad', 'create'], { members: [{ assistant: reception }, { assistant: billing }] });
    const call = await create(['call', 'create'], { squadId: squad.id, customer: { number: '+14155550160' } });
    await h.current.emu.calls.idle();

    const ended = json<{ status: string; endedReason: string; destination: unknown; artifact: { transcript: string } }>(await h.current.voice(['call', 'get', call.id, '--json']));
    expect(ended).toMatchObject({ status: 'ended', endedReason: 'assistant-forwarded-call', destination: { type: 'number', number: '+15555550199' } });
    expect(ended.artifact.transcript.split('\n')).toEqual([
      'AI: Reception, hello.',
      'User: I have a question about my bill.',
      'AI: Billing here.',
      'User: Can I talk to a person, please?',
      'AI: Putting you through to our team.',
    ]);
    const handoff = received('handoff-destination-request');
    expect(handoff.map((g) => g.path)).toEqual(['/router']);
    expect(messageOf(handoff[0]).parameters).toEqual({ destination: 'dynamic', customerIntent: 'existing-customer' });
    expect(received('transfer-destination-request').map((g) => g.path)).toEqual(['/billing']);
    const ofCall = server.got.filter((g) => (messageOf(g).call as { id?: string } | undefined)?.id === call.id).map(messageOf);
    const order = ofCall.map((m) => (m.type === 'status-update' ? `status-update:${String(m.status)}` : String(m.type)));
    expect(order.slice(order.indexOf('transfer-destination-request'))).toEqual([
      'transfer-destination-request',
      'transfer-update',
      'status-update:forwarding',
      'status-update:ended',
      'end-of-call-report',
    ]);
    expect(ofCall.find((m) => m.type === 'end-of-call-report')).toMatchObject({ endedReason: 'assistant-forwarded-call' });

    const deleted = await h.current.voice(['call', 'delete', call.id, '--yes']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    await h.current.emu.calls.idle();
    expect(received('call.deleted').map((g) => g.path)).toEqual(['/reception']);
    expect(messageOf(received('call.deleted')[0])).toMatchObject({ call: { id: call.id, endedReason: 'assistant-forwarded-call' } });
  });

  it('every one of the eight was sent, and everything sent fits the published schemas', async () => {
    for (const type of EIGHT) expect(received(type).length, type).toBeGreaterThan(0);
    expect(await messageProblems(server.got.map(messageOf))).toEqual([]);
  });
});
