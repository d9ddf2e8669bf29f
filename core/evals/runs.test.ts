// Simulation and eval runs through the emulator's REST API, on a fake model scripted for the
// tester, the target, the extractor and the judge: what passes, what fails and why, tool mocks,
// hooks, continuePlan, and every answer checked against the published schemas.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../emulator/index.js';
import type { Emulator } from '../emulator/index.js';
import type { Json } from '../messages/index.js';
import { startFakeModel } from '../model/testing.js';
import type { FakeModel, FakeReply, FakeRequest } from '../model/testing.js';
import { loadSchemas } from '../schemas/validate.js';
import type { Schemas } from '../schemas/validate.js';
import { byRole, testerTurn } from './roles.test-support.js';

interface Loopback {
  url: string;
  bodies: Json[];
  close(): Promise<void>;
}

/** A server that records what it is sent and answers 200 `{}`. */
async function recorder(): Promise<Loopback> {
  const bodies: Json[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(text || '{}') as Json);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, close: () => new Promise((ok) => server.close(() => ok())) };
}

let extracted = 'booked';
let judge = 'pass';
const targetRequests: FakeRequest[] = [];
const lastRole = (req: FakeRequest): string => ((req.body.messages as Json[]).at(-1)?.role as string) ?? '';

let model: FakeModel;
let emu: Emulator;
let tools: Loopback;
let hooks: Loopback;
let schemas: Schemas;
let target: Json;
let outputId: string;
let personalityId: string;

beforeAll(async () => {
  model = await startFakeModel(
    byRole({
      tester: (req): FakeReply => (testerTurn(req) === 0 ? { text: 'I need a check-up on Tuesday.' } : { toolCalls: [{ name: 'endCall' }] }),
      target: (req): FakeReply => {
        targetRequests.push(req);
        const last = (req.body.messages as Json[]).at(-1);
        if (last?.role === 'user' && /check-up/.test(String(last.content))) return { toolCalls: [{ name: 'check_availability', arguments: { day: 'Tuesday' } }] };
        if (lastRole(req) === 'tool') return { text: 'Booked you for Tuesday 14:30.' };
        return {
          text: String(last?.content ?? '') === 'Hello?' ? (judge === 'pass' ? 'riverside clinic, how can I help?' : 'Hello.') : judge === 'pass' ? 'Yes, Tuesday works.' : 'Sorry, we are closed.',
        };
      },
      extractor: (): FakeReply => ({ text: JSON.stringify({ outcome: extracted }) }),
      judge: (): FakeReply => ({ text: judge }),
    }),
  );
  [emu, tools, hooks, schemas] = await Promise.all([startEmulator({ model: { url: model.url }, simulationConcurrency: 2 }), recorder(), recorder(), loadSchemas()]);
  const c = emu.client;
  const tool = await c.tool.create({
    type: 'function',
    function: { name: 'check_availability', parameters: { type: 'object', properties: { day: { type: 'string' } } } },
    server: { url: tools.url },
  } as never);
  const assistant = await c.assistant.create({
    name: 'Receptionist',
    firstMessage: 'Riverside Clinic, how can I help?',
    model: { provider: 'openai', model: 'gpt-4o', toolIds: [tool.id], messages: [{ role: 'system', content: 'You take calls for Riverside Clinic.' }] },
  } as never);
  target = { type: 'assistant', assistantId: assistant.id };
  outputId = (await c.structuredOutput.create({ name: 'Call outcome', type: 'ai', schema: { type: 'object', properties: { outcome: { type: 'string' } } } } as never)).id;
  personalityId = (
    await c.eval.simulation.personality.create({
      name: 'Hurried',
      assistant: { model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are in a hurry.' }] } },
    } as never)
  ).id;
});

afterAll(async () => {
  await Promise.all([emu?.close(), model?.close(), tools?.close(), hooks?.close()]);
});

async function simulate(evaluations: Json[], extra: Json = {}): Promise<{ run: Json; items: Json[] }> {
  const c = emu.client;
  const scenario = await c.eval.simulation.scenario.create({
    name: 'Book',
    instructions: 'Book a check-up on Tuesday.',
    evaluations,
    toolMocks: [{ toolName: 'check_availability', result: '{"slots":["Tuesday 14:30"]}' }],
    ...extra,
  } as never);
  const sim = await c.eval.simulation.create({ name: 'Books', scenarioId: scenario.id, personalityId } as never);
  const started = await c.eval.simulation.run.create({ simulations: [{ type: 'simulation', simulationId: sim.id }], target, iterations: 1 } as never);
  await emu.runs.idle();
  const run = (await c.eval.simulation.run.get(started.id)) as unknown as Json;
  const items = (await c.eval.simulation.run.item.list(started.id)) as unknown as Json[];
  expect(schemas.response('GET', `/eval/simulation/run/${started.id}`, run, { closed: true })).toEqual([]);
  expect(schemas.response('GET', `/eval/simulation/run/${started.id}/item`, items, { closed: true })).toEqual([]);
  return { run, items };
}

const BOOKED = { structuredOutputId: '', path: 'outcome', comparator: '=', value: 'booked' };

describe('simulation runs on the model step', () => {
  it('passes when the extracted value matches; the tool mock answers instead of the tool server; hooks fire', async () => {
    extracted = 'booked';
    const hook = { on: 'simulation.run.ended', do: [{ type: 'webhook', server: { url: hooks.url }, include: { transcript: true } }] };
    const { run, items } = await simulate(
      [
        { ...BOOKED, structuredOutputId: outputId },
        { structuredOutputId: outputId, path: 'outcome', comparator: '=', value: 'moved', required: false },
      ],
      { hooks: [hook] },
    );
    expect(run).toMatchObject({ status: 'ended', itemCounts: { total: 1, passed: 1, failed: 0 } });
    const item = items[0] as Json;
    expect(item.status).toBe('passed');
    expect((item.results as Json).evaluations).toMatchObject([
      { name: 'Call outcome', extractedValue: 'booked', expectedValue: 'booked', passed: true, required: true },
      { extractedValue: 'booked', expectedValue: 'moved', passed: false, required: false },
    ]);
    expect(tools.bodies).toEqual([]);
    const messages = ((item.metadata as Json).call as Json).messages as Json[];
    expect(messages).toContainEqual(expect.objectContaining({ role: 'tool', content: '{"slots":["Tuesday 14:30"]}' }));
    expect(hooks.bodies).toHaveLength(1);
    expect(hooks.bodies[0]).toMatchObject({ message: { type: 'simulation.run.ended', transcript: expect.stringContaining('AI: Booked you for Tuesday 14:30.') } });
  });

  it('fails when the extracted value differs, saying what was expected and what was extracted', async () => {
    extracted = 'moved';
    const { run, items } = await simulate([{ ...BOOKED, structuredOutputId: outputId }]);
    expect(run).toMatchObject({ status: 'ended', itemCounts: { passed: 0, failed: 1 } });
    expect(items[0]).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('expected = "booked", extracted "moved"'), results: { passed: false } });
  });

  it('never passes what it could not judge: a comparator on an object, an audio-only output, a missing output', async () => {
    extracted = 'booked';
    const audio = (await emu.client.structuredOutput.create({ name: 'Interruptions', type: 'ai', description: 'Did the assistant interrupt the caller?', schema: { type: 'boolean' } } as never)).id;
    const { items } = await simulate([
      { structuredOutputId: outputId, comparator: '=', value: 'booked' },
      { structuredOutputId: audio, comparator: '=', value: false },
      { structuredOutputId: '00000000-0000-4000-8000-00000000dead', comparator: '=', value: 1 },
    ]);
    expect(items[0]).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('No evaluation could be judged') });
    const evaluations = ((items[0] as Json).results as Json).evaluations as Json[];
    expect(evaluations[0]).toMatchObject({ passed: false, error: expect.stringContaining('primitive values only') });
    expect(evaluations[1]).toMatchObject({ passed: false, isSkipped: true, skipReason: expect.stringContaining('only audio carries') });
    expect(evaluations[2]).toMatchObject({ passed: false, error: expect.stringContaining('does not exist') });
  });

  it('reports the org concurrency it plays items at', async () => {
    expect(await emu.client.eval.simulation.concurrency()).toMatchObject({ concurrencyLimit: 2 });
  });
});

describe('eval runs on the model step', () => {
  const messages = [
    { role: 'user', content: 'Hello?' },
    { role: 'assistant', judgePlan: { type: 'exact', content: 'Riverside Clinic, how can I help?' }, continuePlan: { contentOverride: 'OVERRIDDEN GREETING' } },
    { role: 'user', content: 'Can I book Tuesday?' },
    { role: 'assistant', judgePlan: { type: 'regex', content: '/tuesday/i' } },
    { role: 'user', content: 'Thanks' },
    {
      role: 'assistant',
      judgePlan: {
        type: 'ai',
        model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'You are a judge. Did the assistant say goodbye politely? {{messages[-1]}} Answer pass or fail.' }] },
      },
    },
  ];

  async function evalRun(evalMessages: Json[]): Promise<Json> {
    const started = await emu.client.eval.run.create({ type: 'eval', eval: { type: 'chat.mockConversation', messages: evalMessages }, target } as never);
    await emu.runs.idle();
    const run = (await emu.client.eval.run.get(started.id)) as unknown as Json;
    // Closed, but for each judged message's `judge`: the platform's guide shows it, its schema has no such field.
    const problems = schemas.response('GET', `/eval/run/${started.id}`, run, { closed: true });
    expect(problems.filter((p) => !(p.rule === 'unknown-field' && /^results\.\d+\.messages\.\d+\.judge$/.test(p.path)))).toEqual([]);
    return run;
  }

  it('exact, regex and AI judges each pass; contentOverride replaces the turn the conversation keeps', async () => {
    judge = 'pass';
    targetRequests.length = 0;
    const run = await evalRun(messages);
    expect(run).toMatchObject({ status: 'ended', endedReason: 'mockConversation.done', results: [{ status: 'pass' }] });
    expect(run.endedMessage).toBeUndefined();
    expect(targetRequests).toHaveLength(3);
    expect((targetRequests[1]?.body.messages as Json[]).map((m) => m.content)).toContain('OVERRIDDEN GREETING');
  });

  it('exact, regex and AI judges each fail, each saying why', async () => {
    judge = 'fail';
    const run = await evalRun(messages);
    expect(run).toMatchObject({ status: 'ended', endedReason: 'mockConversation.done', results: [{ status: 'fail' }] });
    // The reference keeps endedMessage for runs that did not reach the end: each judged message says why instead.
    expect(run.endedMessage).toBeUndefined();
    const judged = ((run.results as Json[])[0]?.messages as Json[]).filter((m) => m.judge);
    expect(judged.map((m) => m.judge)).toEqual([
      { status: 'fail', failureReason: 'expected exactly "Riverside Clinic, how can I help?", the assistant said "Hello."' },
      { status: 'fail', failureReason: '/tuesday/i does not match "Sorry, we are closed."' },
      { status: 'fail', failureReason: expect.any(String) },
    ]);
  });

  it('stops at a failed judge with exitOnFailureEnabled', async () => {
    judge = 'fail';
    targetRequests.length = 0;
    const stopping = messages.map((m, i) => (i === 1 ? { ...m, continuePlan: { exitOnFailureEnabled: true } } : m));
    const run = await evalRun(stopping);
    expect(run).toMatchObject({ results: [{ status: 'fail' }] });
    expect(targetRequests).toHaveLength(1);
  });
});

describe('structured-output runs on a call', () => {
  it("extracts from the call's conversation on the model and keeps the value on the call", async () => {
    const callId = '11111111-2222-4333-8444-555555555555';
    const messages = [
      { role: 'bot', message: 'Riverside Clinic, how can I help?' },
      { role: 'user', message: 'I want to move my check-up to Friday.' },
      { role: 'bot', message: 'Moved to Friday at 9.' },
    ];
    const now = new Date().toISOString();
    const initial = {
      format: 'voice-emulator',
      version: 1,
      orgId: 'org-1',
      userId: 'user-1',
      collections: {
        call: [{ id: callId, orgId: 'org-1', createdAt: now, updatedAt: now, type: 'webCall', status: 'ended', assistant: { model: { provider: 'openai', model: 'gpt-4o' } }, artifact: { messages } }],
      },
    };
    const seen: FakeRequest[] = [];
    const extractor = await startFakeModel((req) => {
      seen.push(req);
      return { text: '{"outcome":"moved"}' };
    });
    const local = await startEmulator({ model: { url: extractor.url }, initial: initial as never });
    try {
      const output = { name: 'Call outcome', schema: { type: 'object', properties: { outcome: { type: 'string' } } } };
      const preview = (await local.client.structuredOutput.run({ callIds: [callId], structuredOutput: output, previewEnabled: true } as never)) as Record<string, unknown>;
      expect(preview[callId]).toEqual({ name: 'Call outcome', result: { outcome: 'moved' } });
      expect(JSON.stringify(seen[0]?.body.messages)).toContain('User: I want to move my check-up to Friday.');
      await local.client.structuredOutput.run({ callIds: [callId], structuredOutput: output } as never);
      expect((await local.client.call.get(callId)).artifact).toMatchObject({ structuredOutputs: { preview: { name: 'Call outcome', result: { outcome: 'moved' } } } });
    } finally {
      await Promise.all([local.close(), extractor.close()]);
    }
  });
});
