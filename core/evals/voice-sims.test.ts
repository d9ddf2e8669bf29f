// Voice-mode simulations (the run's transport `vapi.websocket`) on the emulator's audio loop: the
// tester persona talks over the assistant as its voice mode says, and the extraction is given the
// call's audio timeline written out. The fake extractor answers from that text alone (true only
// when it holds the interruption mark), so a pass proves the timeline reached the extraction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../emulator/index.js';
import type { Emulator } from '../emulator/index.js';
import type { Json } from '../messages/index.js';
import { startFakeModel } from '../model/testing.js';
import { loadSchemas } from '../schemas/validate.js';
import type { Schemas } from '../schemas/validate.js';
import type { FakeModel, FakeRequest } from '../model/testing.js';
import { byRole, systemOf, testerTurn, transcriptIn } from './roles.test-support.js';

const LONG = 'We have tables at six, seven and eight tonight, and the patio is open if the weather holds, which it should.';
const MARK = 'INTERRUPTION: the user interrupted the assistant';

let model: FakeModel;
let emu: Emulator;
let target: Json;
let outputId: string;
let schemas: Schemas;
const extractorPrompts: string[] = [];
const testerHeard: string[] = [];

beforeAll(async () => {
  model = await startFakeModel(
    byRole({
      tester: (req: FakeRequest) => {
        const n = testerTurn(req);
        if (n === 1) testerHeard.push(String((req.body.messages as Json[]).at(-1)?.content));
        return n === 0 ? { text: "I'd like a table for two tonight." } : n === 1 ? { text: 'Seven works for me.' } : { toolCalls: [{ name: 'endCall' }] };
      },
      target: (req) => {
        const messages = req.body.messages as Json[];
        if (systemOf(req).includes('check the tables')) {
          if (messages.at(-1)?.role === 'tool') return { text: `We have ${String(messages.at(-1)?.content)}.` };
          if (messages.at(-1)?.role === 'user') return { toolCalls: [{ name: 'check_tables', arguments: {} }] };
        }
        return { text: messages.filter((m) => m.role === 'assistant').length < 2 ? LONG : 'Great, you are booked for seven.' };
      },
      extractor: (req) => {
        const prompt = transcriptIn(req);
        extractorPrompts.push(prompt);
        return { text: JSON.stringify(prompt.includes(MARK)) };
      },
      judge: () => ({ text: 'pass' }),
    }),
  );
  [emu, schemas] = await Promise.all([startEmulator({ model: { url: model.url } }), loadSchemas()]);
  const c = emu.client;
  const assistant = await c.assistant.create({
    name: 'Bella Cucina',
    firstMessage: 'Bella Cucina, hello.',
    stopSpeakingPlan: { numWords: 0, voiceSeconds: 0.2 },
    model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'You take bookings.' }] },
  } as never);
  target = { type: 'assistant', assistantId: assistant.id };
  outputId = (await c.structuredOutput.create({ name: 'Interrupted', type: 'ai', schema: { type: 'boolean', description: 'Did the caller interrupt the assistant?' } } as never)).id;
}, 60_000);

afterAll(async () => {
  await Promise.all([emu?.close(), model?.close()]);
});

/** Runs one simulation of a persona (its assistant's metadata as given) and returns its item. */
async function run(metadata: Json | undefined, transport: string, scenarioExtra: Json = {}, against = target): Promise<Json> {
  const c = emu.client;
  const personality = await c.eval.simulation.personality.create({
    name: metadata ? 'Talks over' : 'Waits',
    assistant: { model: { provider: 'openai', model: 'gpt-4o-mini' }, ...(metadata ? { metadata } : {}) },
  } as never);
  const scenario = await c.eval.simulation.scenario.create({
    name: 'Book a table',
    instructions: 'Book a table for two tonight.',
    evaluations: [{ structuredOutputId: outputId, comparator: '=', value: true }],
    ...scenarioExtra,
  } as never);
  const sim = await c.eval.simulation.create({ name: 'Books', scenarioId: scenario.id, personalityId: personality.id } as never);
  const started = await c.eval.simulation.run.create({ simulations: [{ type: 'simulation', simulationId: sim.id }], target: against, transport: { provider: transport } } as never);
  await emu.runs.idle();
  const items = (await c.eval.simulation.run.item.list(started.id)) as unknown as Json[];
  // The item (its callId, recording and latency metrics too) is the published shape.
  expect(schemas.response('GET', `/eval/simulation/run/${started.id}/item`, items, { closed: true })).toEqual([]);
  return items[0] as Json;
}

const TALKS_OVER = { voiceMode: { turns: [{}, { interrupt: { afterWords: 3 } }] } };

describe('voice-mode simulations', () => {
  it('an evaluation of whether the assistant was interrupted passes when the persona talks over it', async () => {
    const item = await run(TALKS_OVER, 'vapi.websocket');
    expect(item.failureReason).toBeUndefined();
    expect(item.status).toBe('passed');
    expect((item.results as Json).evaluations).toMatchObject([{ name: 'Interrupted', extractedValue: true, passed: true }]);
    // The tester wrote its line from the three words it had heard, and said it over the rest.
    expect(testerHeard.at(-1)).toBe('We have tables');
    // The turns the call measured on its audio, in the published LatencyMetrics.
    const latency = (item.results as Json).latencyMetrics as Json;
    expect(latency).toMatchObject({ turnCount: 2, avgEndpointing: 100, avgTranscriber: 0 });
    expect(Number(latency.avgTurn)).toBeGreaterThan(Number(latency.avgEndpointing));
    const prompt = extractorPrompts.at(-1) as string;
    expect(prompt).toMatch(/AI \(cut off at [\d.]+; only "We have tables[^"]*" was said of: We have tables at six/);
    expect(prompt).toMatch(/Summary: .*interruptions: 1 by the user/);
    // The item names its call, which ended with sound and the cut in its transcript.
    const call = (await emu.client.call.get(String(item.callId))) as Json;
    expect(call).toMatchObject({ type: 'vapi.websocketCall', status: 'ended', endedReason: 'customer-ended-call' });
    // The published Call, but for the stand-ins list every call with sound carries (docs/audio.md).
    const problems = schemas.response('GET', `/call/${String(item.callId)}`, call, { closed: true });
    expect(problems.filter((p) => p.path !== 'artifact.performanceMetrics.simulated')).toEqual([]);
    expect((call.artifact as Json).performanceMetrics).toMatchObject({ numAssistantInterrupted: 1 });
    expect(String((call.artifact as Json).transcript)).not.toContain('patio');
  });

  it('fails when the persona waits its turn: no interruption on the timeline', async () => {
    const item = await run(undefined, 'vapi.websocket');
    expect(item.status).toBe('failed');
    expect((item.results as Json).evaluations).toMatchObject([{ extractedValue: false, passed: false }]);
    expect(testerHeard.at(-1)).toBe(LONG);
    expect(extractorPrompts.at(-1)).toContain(`AI: ${LONG}`);
    expect(extractorPrompts.at(-1)).not.toContain('INTERRUPTION:');
  });

  it('in chat mode the same evaluation is skipped, never judged, and the item fails saying why', async () => {
    const before = extractorPrompts.length;
    const item = await run(TALKS_OVER, 'vapi.webchat');
    expect(item.status).toBe('failed');
    expect(item.callId).toBeUndefined();
    expect((item.results as Json).evaluations).toMatchObject([{ isSkipped: true }]);
    expect(String(item.failureReason)).toContain('Skipped in a chat run');
    expect(extractorPrompts.length).toBe(before);
  });

  it("the scenario's tool mocks answer the target's tool calls on the call, no server called", async () => {
    const tool = await emu.client.tool.create({
      type: 'function',
      function: { name: 'check_tables', parameters: { type: 'object', properties: {} } },
      server: { url: 'http://127.0.0.1:9/none' },
    } as never);
    const checker = await emu.client.assistant.create({
      name: 'Checker',
      firstMessage: 'Bella Cucina, hello.',
      model: { provider: 'openai', model: 'gpt-4o', toolIds: [tool.id], messages: [{ role: 'system', content: 'You check the tables before answering.' }] },
    } as never);
    const item = await run(undefined, 'vapi.websocket', { toolMocks: [{ toolName: 'check_tables', result: 'a table at seven' }] }, { type: 'assistant', assistantId: checker.id });
    const call = (await emu.client.call.get(String(item.callId))) as Json;
    expect(String((call.artifact as Json).transcript)).toContain('AI: We have a table at seven.');
    expect(emu.deliveries(String(item.callId)).filter((d) => String(d.url).includes(':9/'))).toEqual([]);
  });

  it("a pause longer than the assistant's silence hook's timeout: the hook speaks in it, on the timeline", async () => {
    const patient = await emu.client.assistant.create({
      name: 'Patient',
      firstMessage: 'Bella Cucina, hello.',
      hooks: [{ on: 'customer.speech.timeout', options: { timeoutSeconds: 2 }, do: [{ type: 'say', exact: 'Are you still there?' }] }],
      model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'You take bookings.' }] },
    } as never);
    await run({ voiceMode: { pauseSeconds: 3 } }, 'vapi.websocket', {}, { type: 'assistant', assistantId: patient.id });
    const prompt = extractorPrompts.at(-1) as string;
    expect(prompt).toMatch(/^4\.\d\d hook customer\.speech\.timeout fires \(time 1\): say$/m);
    expect(prompt).toMatch(/^4\.\d\d-[\d.]+ AI: Are you still there\?$/m);
  });

  it('with sound turned off (voice dev --no-audio) the call runs on the text timeline and the audio-only evaluation is skipped, saying why', async () => {
    const quiet = await startEmulator({ model: { url: model.url }, audio: false });
    try {
      const c = quiet.client;
      const assistant = await c.assistant.create({ name: 'Quiet', firstMessage: 'Hello.', model: { provider: 'openai', model: 'gpt-4o' } } as never);
      const output = await c.structuredOutput.create({ name: 'Interrupted', type: 'ai', schema: { type: 'boolean', description: 'Did the caller interrupt the assistant?' } } as never);
      const scenario = await c.eval.simulation.scenario.create({ name: 'Book', instructions: 'Book.', evaluations: [{ structuredOutputId: output.id, comparator: '=', value: true }] } as never);
      const personality = await c.eval.simulation.personality.create({ name: 'P', assistant: { model: { provider: 'openai', model: 'gpt-4o-mini' } } } as never);
      const sim = await c.eval.simulation.create({ name: 'S', scenarioId: scenario.id, personalityId: personality.id } as never);
      const started = await c.eval.simulation.run.create({
        simulations: [{ type: 'simulation', simulationId: sim.id }],
        target: { type: 'assistant', assistantId: assistant.id },
        transport: { provider: 'vapi.websocket' },
      } as never);
      await quiet.runs.idle();
      const [item] = (await c.eval.simulation.run.item.list(started.id)) as unknown as Json[];
      expect(item).toMatchObject({ status: 'failed', results: { evaluations: [{ isSkipped: true }] } });
      expect(String(item!.failureReason)).toContain('Skipped in a voice-mode run whose call had no sound (audio is off (--no-audio)');
      expect(item!.callId).toBeDefined();
    } finally {
      await quiet.close();
    }
  });

  it('a malformed voiceMode fails the item with what is wrong', async () => {
    const item = await run({ voiceMode: { interrupt: { afterWords: 0 }, dtmf: '12x' } }, 'vapi.websocket');
    expect(item.status).toBe('failed');
    expect(String(item.failureReason)).toMatch(/voiceMode\.interrupt must be .*voiceMode\.dtmf must be keypad keys/);
  });
});
