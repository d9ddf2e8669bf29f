// The runs' model gate: with `runModelConcurrency`, more simulations play at once than model
// requests are in flight, and the model never sees more than that many at once; `nextChange`
// wakes a waiting reader when a run changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../emulator/index.js';
import type { Emulator } from '../emulator/index.js';
import type { Json } from '../messages/index.js';
import { startFakeModel } from '../model/testing.js';
import type { FakeModel, FakeReply } from '../model/testing.js';
import { byRole, testerTurn } from './roles.test-support.js';

let model: FakeModel;
let emu: Emulator;
let simulationId: string;
let target: Json;
// A model that takes a while, so items playing at once would overlap their requests without the gate.
const slow = (reply: FakeReply): FakeReply => ({ ...reply, delayMs: 20 });

beforeAll(async () => {
  model = await startFakeModel(
    byRole({
      tester: (req) => slow(testerTurn(req) < 2 ? { text: 'Tuesday, please.' } : { toolCalls: [{ name: 'endCall' }] }),
      target: () => slow({ text: 'Booked.' }),
      extractor: () => slow({ text: '{"outcome":"booked"}' }),
      judge: () => slow({ text: 'pass' }),
    }),
  );
  emu = await startEmulator({ model: { url: model.url }, simulationConcurrency: 6, runModelConcurrency: 2 });
  const c = emu.client;
  const assistant = await c.assistant.create({ name: 'Desk', firstMessage: 'Hello.', model: { provider: 'openai', model: 'gpt-4o' } } as never);
  target = { type: 'assistant', assistantId: assistant.id };
  const output = await c.structuredOutput.create({ name: 'Outcome', type: 'ai', schema: { type: 'object', properties: { outcome: { type: 'string' } } } } as never);
  const personality = await c.eval.simulation.personality.create({ name: 'Caller', assistant: { model: { provider: 'openai', model: 'gpt-4o-mini' } } } as never);
  const scenario = await c.eval.simulation.scenario.create({
    name: 'Book',
    instructions: 'Book Tuesday.',
    evaluations: [{ structuredOutputId: output.id, path: 'outcome', comparator: '=', value: 'booked' }],
  } as never);
  simulationId = (await c.eval.simulation.create({ name: 'Books', scenarioId: scenario.id, personalityId: personality.id } as never)).id;
});

afterAll(async () => {
  await Promise.all([emu?.close(), model?.close()]);
});

describe('the model gate of runs', () => {
  it('keeps at most runModelConcurrency model requests in flight while more items play', async () => {
    const c = emu.client;
    const changed = emu.runs.nextChange();
    const run = await c.eval.simulation.run.create({ simulations: [{ type: 'simulation', simulationId }], target, iterations: 6 } as never);
    // The items start in the background after the create answered: the host signals it.
    await changed;
    await emu.runs.idle();
    const items = (await c.eval.simulation.run.item.list(run.id)) as unknown as Json[];
    expect(items.map((i) => i.status)).toEqual(Array(6).fill('passed'));
    // 6 items x (2 tester lines, each answered, the hang-up, one extraction) = 36 requests, never more than 2 at once.
    expect(model.requests).toHaveLength(36);
    expect(model.peakInFlight).toBeLessThanOrEqual(2);
    expect(await c.eval.simulation.concurrency()).toMatchObject({ concurrencyLimit: 6 });
  });
});
