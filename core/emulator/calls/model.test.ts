// Calls run by the assistant's model (a fake OpenAI-compatible server on loopback): its words are
// spoken, its tool calls reach the developer's tool server and the results go back to it, endCall
// and transferCall end the call the platform's way, failures end it with the provider's
// endedReason, and every message sent is valid by the published schemas.
import { afterEach, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { NO_MODEL_HINT } from '../../model/index.js';
import { startFakeModel } from '../../model/testing.js';
import type { FakeReply } from '../../model/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import type { Scenario } from './scenario.js';
import { startHook, until } from './testing.js';
import type { Hook, Received } from './testing.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
const ALL = [
  'status-update',
  'transcript',
  'tool-calls',
  'end-of-call-report',
  'conversation-update',
  'model-output',
  'speech-update',
  'transfer-update',
  'transfer-destination-request',
  'user-interrupted',
  'hang',
];
const ONE_LINE: Scenario = { turns: [{ say: 'Where is parcel 123?' }] };
type Obj = Record<string, unknown>;

let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.map((o) => o.close()));
  open = [];
});

/** A fake model, a server for the assistant's messages, a tool server, and an emulator using the model. */
async function setup(replies: FakeReply[], options: { scenario?: Scenario; tool?: (r: Received) => unknown; transfer?: unknown } = {}) {
  const fake = await startFakeModel(replies);
  const app = await startHook((r) => (r.message.type === 'transfer-destination-request' ? { json: options.transfer ?? {} } : undefined));
  const tools = await startHook((r) => ({ json: options.tool?.(r) ?? {} }));
  const emu = await startEmulator({ speed: 500, scenario: options.scenario ?? ONE_LINE, model: { url: fake.url, model: 'fake-llm' } });
  open.push(emu, fake, app, tools);
  return { fake, app, tools, emu };
}

function assistant(app: Hook, tools: Obj[], extra: Obj = {}): Obj {
  return {
    name: 'Parcels',
    firstMessage: 'Parcel desk, how can I help?',
    server: { url: app.url },
    serverMessages: ALL,
    model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You track parcels.' }], tools },
    ...extra,
  };
}

const trackParcel = (url: string) => ({
  type: 'function',
  function: { name: 'trackParcel', parameters: { type: 'object', properties: { parcelId: { type: 'string' }, urgent: { type: 'boolean' } } } },
  server: { url },
});

async function run(emu: Emulator, body: Obj): Promise<Obj> {
  const res = await fetch(`${emu.url}/call`, { method: 'POST', headers, body: JSON.stringify({ customer: { number: '+14155550177' }, ...body }) });
  expect(res.status, await res.clone().text()).toBe(201);
  const call = (await res.json()) as { id: string };
  await emu.calls.idle();
  return (await (await fetch(`${emu.url}/call/${call.id}`, { headers })).json()) as Obj;
}

async function valid(app: Hook): Promise<void> {
  expect(app.received.length).toBeGreaterThan(0);
  expect(await messageProblems(app.received.map((r) => r.message))).toEqual([]);
}

const report = (app: Hook): Obj => app.received.find((r) => r.message.type === 'end-of-call-report')?.message as Obj;

describe("a call run by the assistant's model", () => {
  it('sends the tool call the model streamed in four chunks to the tool server, gives the result back, and speaks the answer', async () => {
    const { fake, app, tools, emu } = await setup(
      [{ toolCalls: [{ name: 'trackParcel', arguments: { parcelId: '123', urgent: true }, chunks: 4 }] }, { text: 'Your parcel 123 arrives on Tuesday.' }],
      { tool: (r) => ({ results: [{ toolCallId: ((r.message.toolCallList as Obj[])[0] as Obj).id, result: 'Parcel 123: out for delivery, arrives Tuesday.' }] }) },
    );
    const call = await run(emu, { assistant: assistant(app, [trackParcel(tools.url)]) });
    expect(call.endedReason).toBe('customer-ended-call');

    const first = fake.requests[0]?.body as Obj;
    expect(first.stream).toBe(true);
    expect(first.model).toBe('fake-llm');
    expect((first.messages as Obj[])[0]).toEqual({ role: 'system', content: 'You track parcels.' });
    expect(first.messages).toContainEqual({ role: 'user', content: 'Where is parcel 123?' });
    expect((first.tools as Obj[]).map((t) => (t.function as Obj).name)).toContain('trackParcel');

    const sent = tools.received.find((r) => r.message.type === 'tool-calls')?.message as Obj;
    const list = sent.toolCallList as { id: string; function: { name: string; arguments: string } }[];
    expect(list[0]?.function.name).toBe('trackParcel');
    expect(JSON.parse(list[0]?.function.arguments ?? '')).toEqual({ parcelId: '123', urgent: true });

    expect(fake.requests[1]?.body.messages).toContainEqual({ role: 'tool', tool_call_id: list[0]?.id, content: 'Parcel 123: out for delivery, arrives Tuesday.' });
    const transcript = String((call.artifact as Obj).transcript);
    expect(transcript).toContain('Your parcel 123 arrives on Tuesday.');
    expect(String((report(app).artifact as Obj).transcript)).toContain('Your parcel 123 arrives on Tuesday.');
    expect(app.types()).toContain('model-output');

    const perf = (call.artifact as Obj).performanceMetrics as { turnLatencies: Obj[]; modelLatencyAverage: number };
    expect(perf.turnLatencies.length).toBe(1);
    expect(typeof perf.turnLatencies[0]?.modelLatency).toBe('number');
    expect(((report(app).artifact as Obj).performanceMetrics as Obj).turnLatencies).toEqual(perf.turnLatencies);
    expect(String((call.analysis as Obj).summary)).not.toContain(NO_MODEL_HINT);
    await valid(app);
    await valid(tools);
  });

  it('sends two tool calls of one answer to their server in one tool-calls message, and gives both results back', async () => {
    const { fake, app, tools, emu } = await setup(
      [
        {
          toolCalls: [
            { name: 'trackParcel', arguments: { parcelId: 'A' } },
            { name: 'trackParcel', arguments: { parcelId: 'B' } },
          ],
        },
        { text: 'Both are on their way.' },
      ],
      {
        tool: (r) => {
          const calls = r.message.toolCallList as { id: string; function: { arguments: string } }[];
          return { results: calls.map((c) => ({ toolCallId: c.id, result: `parcel ${JSON.parse(c.function.arguments).parcelId} ok` })) };
        },
      },
    );
    const call = await run(emu, { assistant: assistant(app, [trackParcel(tools.url)]) });
    expect(tools.types()).toEqual(['tool-calls']);
    expect((tools.received[0]?.message.toolCallList as unknown[]).length).toBe(2);
    const toolMessages = (fake.requests[1]?.body.messages as Obj[]).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages).toEqual(['parcel A ok', 'parcel B ok']);
    expect(String((call.artifact as Obj).transcript)).toContain('Both are on their way.');
    await valid(app);
  });

  it('ends the call when the model calls endCall', async () => {
    const { app, emu } = await setup([{ text: 'Goodbye!', toolCalls: [{ name: 'endCall' }] }]);
    const call = await run(emu, { assistant: assistant(app, [{ type: 'endCall' }]) });
    expect(call.endedReason).toBe('assistant-ended-call');
    expect(String((call.artifact as Obj).transcript)).toContain('Goodbye!');
    await valid(app);
  });

  it('transfers to the destination the model chose, with transfer-update', async () => {
    const { app, emu } = await setup([{ toolCalls: [{ name: 'transferCall', arguments: { destination: '+14155550100' } }] }]);
    const call = await run(emu, { assistant: assistant(app, [{ type: 'transferCall', destinations: [{ type: 'number', number: '+14155550100' }] }]) });
    expect(call.endedReason).toBe('assistant-forwarded-call');
    const update = app.received.find((r) => r.message.type === 'transfer-update')?.message as Obj;
    expect(update.destination).toMatchObject({ type: 'number', number: '+14155550100' });
    expect(app.types()).not.toContain('transfer-destination-request');
    await valid(app);
  });

  it('asks the server for the destination when the transferCall tool has none (transfer-destination-request)', async () => {
    const { app, emu } = await setup([{ toolCalls: [{ name: 'transferCall', arguments: {} }] }], { transfer: { destination: { type: 'number', number: '+14155550111' } } });
    const call = await run(emu, { assistant: assistant(app, [{ type: 'transferCall' }]) });
    expect(app.types()).toContain('transfer-destination-request');
    expect(call.endedReason).toBe('assistant-forwarded-call');
    expect((app.received.find((r) => r.message.type === 'transfer-update')?.message as Obj).destination).toMatchObject({ number: '+14155550111' });
    await valid(app);
  });

  it('hands a squad call to the member the model named', async () => {
    const { fake, app, emu } = await setup([{ toolCalls: [{ name: 'handoff_to_Billing', arguments: { destination: 'Billing' } }] }, { text: 'Billing here, your invoice is paid.' }]);
    const front = { ...assistant(app, [{ type: 'handoff', destinations: [{ type: 'assistant', assistantName: 'Billing' }] }]), name: 'Front' };
    const billing = { name: 'Billing', server: { url: app.url }, serverMessages: ALL, model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You do billing.' }] } };
    const call = await run(emu, { squad: { members: [{ assistant: front }, { assistant: billing }] } });
    const update = app.received.find((r) => r.message.type === 'transfer-update')?.message as Obj;
    expect(update.destination).toMatchObject({ type: 'assistant', assistantName: 'Billing' });
    expect((fake.requests[1]?.body.messages as Obj[])[0]).toEqual({ role: 'system', content: 'You do billing.' });
    expect(String((call.artifact as Obj).transcript)).toContain('Billing here, your invoice is paid.');
    await valid(app);
  });

  it('lets the model write the greeting (assistant-speaks-first-with-model-generated-message)', async () => {
    const { fake, app, emu } = await setup([{ text: 'Hi, this is the parcel desk.' }, { text: 'Let me check.' }]);
    const call = await run(emu, { assistant: assistant(app, [], { firstMessage: undefined, firstMessageMode: 'assistant-speaks-first-with-model-generated-message' }) });
    expect((fake.requests[0]?.body.messages as Obj[]).filter((m) => m.role !== 'system')).toEqual([]);
    expect(String((call.artifact as Obj).transcript)).toMatch(/Hi, this is the parcel desk\.[\s\S]*Where is parcel 123\?[\s\S]*Let me check\./);
  });

  it('takes customer lines said on the live call (POST /__voice/calls/{id}/say)', async () => {
    const fake = await startFakeModel((req) => ({ text: `You said ${String(((req.body.messages as Obj[]).at(-1) as Obj).content)}` }));
    const emu = await startEmulator({ speed: 5, scenario: { turns: [{ pauseSeconds: 600 }, { hangup: true }] }, model: { url: fake.url } });
    open.push(emu, fake);
    const res = await fetch(`${emu.url}/call`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ customer: { number: '+14155550177' }, assistant: { firstMessage: 'Hello.', model: { provider: 'openai', model: 'gpt-4o-mini' } } }),
    });
    const { id } = (await res.json()) as { id: string };
    await until(async () => ((await (await fetch(`${emu.url}/call/${id}`, { headers })).json()) as Obj).status === 'in-progress' || undefined);
    const said = await fetch(`${emu.url}/__voice/calls/${id}/say`, { method: 'POST', headers, body: JSON.stringify({ text: 'pineapple' }) });
    expect(said.status).toBe(202);
    await until(() => emu.record.list().some((e) => e.kind === 'call.transcript' && !e.partial && e.text === 'You said pineapple') || undefined);
    const missing = await fetch(`${emu.url}/__voice/calls/nope/say`, { method: 'POST', headers, body: JSON.stringify({ text: 'x' }) });
    expect(missing.status).toBe(404);
    const empty = await fetch(`${emu.url}/__voice/calls/${id}/say`, { method: 'POST', headers, body: JSON.stringify({}) });
    expect(empty.status).toBe(400);
    expect(emu.calls.end(id, 'operator')).toBe(true);
  });
});

describe('model failures end the call as the platform does', () => {
  const cases: [string, FakeReply, string, string?][] = [
    ['a malformed chunk', { text: 'Hel', malformed: true }, 'call.in-progress.error-providerfault-openai-llm-failed'],
    ['401', { status: 401, body: { error: { message: 'bad key' } } }, 'call.in-progress.error-vapifault-openai-401-unauthorized'],
    ['429', { status: 429, body: { error: { message: 'slow down' } } }, 'call.in-progress.error-vapifault-openai-429-rate-limit-reached'],
    ['500', { status: 500, body: { error: { message: 'boom' } } }, 'call.in-progress.error-providerfault-openai-500-server-error'],
    ['401 from a custom LLM', { status: 401, body: 'no' }, 'call.in-progress.error-vapifault-custom-llm-401-unauthorized', 'custom-llm'],
    ['no first byte before timeoutSeconds', { hang: true }, 'call.in-progress.error-providerfault-custom-llm-llm-failed', 'custom-llm'],
  ];
  for (const [name, reply, endedReason, provider] of cases) {
    it(`${name}: ${endedReason}, the cause in the call's log`, async () => {
      const { fake, app, emu } = await setup([reply]);
      const model = provider === 'custom-llm' ? { provider, model: 'mine', url: fake.url, timeoutSeconds: 1 } : { provider: 'openai', model: 'gpt-4o-mini' };
      const call = await run(emu, { assistant: assistant(app, [], { model }) });
      expect(call.endedReason).toBe(endedReason);
      const logs = emu.record.list().filter((e) => e.kind === 'call.log' && e.callId === call.id && e.level === 'ERROR');
      expect(logs.map((e) => (e as { text: string }).text).join('\n')).toMatch(/Model failed on turn 1: \S+/);
      expect(report(app).endedReason).toBe(endedReason);
      await valid(app);
    });
  }
});

describe('without a model', () => {
  it('the conversation is scripted and every view says so', async () => {
    const app = await startHook();
    const emu = await startEmulator({ speed: 1000, scenario: ONE_LINE });
    open.push(emu, app);
    const call = await run(emu, { assistant: assistant(app, []) });
    expect(String((call.analysis as Obj).summary)).toContain(NO_MODEL_HINT);
    expect(String(((report(app).analysis as Obj) ?? {}).summary)).toContain(NO_MODEL_HINT);
    expect(emu.record.list().some((e) => e.kind === 'call.log' && e.callId === call.id && e.text.includes(NO_MODEL_HINT))).toBe(true);
    // Stand-in latencies, each named as one; the counts are real.
    expect((call.artifact as Obj).performanceMetrics).toMatchObject({ simulated: expect.arrayContaining(['modelLatency', 'voiceLatency']), numAssistantInterrupted: 0 });
  });
});
