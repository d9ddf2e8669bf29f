// Type-level tests: method signatures come from the catalogue. `npx tsc -p tsconfig.json` checks
// these (including every @ts-expect-error); vitest runs them as no-ops.
import { describe, expectTypeOf, it } from 'vitest';
import { createClient } from './index.js';
import type { ApiPromise, Assistant, Call, Chat, ListPromise, Paginated, RequestOptions, Squad, TestRun, Upload, WithResponse } from './index.js';
import type { EvalRun, Insight, SimulationScenario, SimulationSuite, StructuredOutput } from '../catalogue/index.js';

const client = createClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' });
// Never called: these only exist for the type checker.
const never = false as boolean;

describe('types', () => {
  it('gets resolve to the resource type', () => {
    expectTypeOf(client.assistant.get).parameters.toEqualTypeOf<[string, (RequestOptions | undefined)?]>();
    expectTypeOf(client.assistant.get).returns.toEqualTypeOf<ApiPromise<Assistant>>();
    expectTypeOf(client.assistant.get).returns.resolves.toEqualTypeOf<Assistant>();
    expectTypeOf(client.call.get).returns.resolves.toEqualTypeOf<Call>();
    expectTypeOf(client.testSuite.run.get).parameters.toEqualTypeOf<[string, string, (RequestOptions | undefined)?]>();
  });

  it('lists take their query and give list promises over the item type', () => {
    expectTypeOf(client.assistant.list).returns.toEqualTypeOf<ListPromise<Assistant, Assistant[]>>();
    expectTypeOf(client.chat.list).returns.toEqualTypeOf<ListPromise<Chat, Paginated<Chat>>>();
    expectTypeOf(client.testSuite.run.list).toBeCallableWith('suite-1');
    expectTypeOf(client.testSuite.run.list).toBeCallableWith('suite-1', { page: 2, sortOrder: 'ASC' });
    expectTypeOf(client.testSuite.run.list).returns.resolves.toEqualTypeOf<Paginated<TestRun>>();
    expectTypeOf(client.squad.list).toBeCallableWith({ idAny: ['a', 'b'], createdAtGt: new Date(), limit: 5 });
    expectTypeOf(client.assistant.list().withResponse()).resolves.toEqualTypeOf<WithResponse<Assistant[]>>();
    expectTypeOf(client.assistant.list()).toExtend<AsyncIterable<Assistant>>();
  });

  it('bodies are typed from the catalogue', () => {
    expectTypeOf(client.assistant.create).toBeCallableWith({ name: 'x', model: { provider: 'openai', model: 'gpt-4o' } });
    expectTypeOf(client.squad.create).returns.resolves.toEqualTypeOf<Squad>();
    expectTypeOf(client.file.create).parameters.toEqualTypeOf<[Upload, (RequestOptions | undefined)?]>();
    expectTypeOf(client.log.delete).toBeCallableWith({ callId: 'c1' });
  });

  it('types the published operations beyond the spec', () => {
    expectTypeOf(client.call.recording.get).returns.resolves.toEqualTypeOf<Uint8Array>();
    expectTypeOf(client.structuredOutput.list).returns.resolves.toEqualTypeOf<Paginated<StructuredOutput>>();
    expectTypeOf(client.eval.simulation.scenario.list).returns.toEqualTypeOf<ListPromise<SimulationScenario, SimulationScenario[]>>();
    expectTypeOf(client.eval.simulation.suite.create).toBeCallableWith({ name: 'Regression', simulationIds: ['s1'] });
    expectTypeOf(client.eval.simulation.suite.get).returns.resolves.toEqualTypeOf<SimulationSuite>();
    expectTypeOf(client.eval.run.get).returns.resolves.toEqualTypeOf<EvalRun>();
    expectTypeOf(client.reporting.insight.get).returns.resolves.toEqualTypeOf<Insight>();
    expectTypeOf(client.structuredOutput.update).toBeCallableWith('so1', { name: 'n' }, { query: { schemaOverride: 'true' } });
    if (never) {
      // @ts-expect-error a suite needs its simulations
      void client.eval.simulation.suite.create({ name: 'no simulations' });
      // @ts-expect-error an insight's type is bar, pie, line or text
      void client.reporting.insight.create({ type: 'donut', queries: [] });
    }
  });

  it('refuses wrong calls at compile time', () => {
    if (never) {
      // @ts-expect-error the id is required
      void client.assistant.get();
      // @ts-expect-error ids are strings
      void client.assistant.get(1);
      // @ts-expect-error a run list needs its suite id
      void client.testSuite.run.list({ page: 2 });
      // @ts-expect-error limit is a number
      void client.assistant.list({ limit: 'ten' });
      // @ts-expect-error unknown query parameter
      void client.assistant.list({ colour: 'red' });
      // @ts-expect-error a squad needs members
      void client.squad.create({ name: 'no members' });
      // @ts-expect-error model.provider is a known provider
      void client.assistant.create({ model: { provider: 'nope', model: 'x' } });
      // @ts-expect-error uploads need a file
      void client.file.create({ purpose: 'assistant' });
    }
  });
});

describe('inputs closed to the published fields', () => {
  it('refuses an unknown top-level field on create and update, and keeps the published ones', () => {
    if (never) {
      // @ts-expect-error `nmae` is no field of the published assistant body
      void client.assistant.create({ nmae: 'typo' });
      // @ts-expect-error `colour` is no field of the published assistant update body
      void client.assistant.update('a1', { name: 'ok', colour: 'red' });
      // @ts-expect-error `membrs` is no field of the published squad body
      void client.squad.create({ members: [], membrs: [] });
      // @ts-expect-error a declared field keeps its type: a name is text
      void client.assistant.create({ name: 42 });
    }
    // Published fields the hand-written type does not declare are accepted too.
    expectTypeOf(client.assistant.create).toBeCallableWith({ name: 'x', firstMessageMode: 'assistant-waits-for-user', backgroundSound: 'office', maxDurationSeconds: 600 });
    expectTypeOf(client.assistant.update).toBeCallableWith('a1', { endCallPhrases: ['bye'], model: { provider: 'openai', model: 'gpt-4o', temperature: 0.2 } });
    expectTypeOf(client.tool.create).toBeCallableWith({ type: 'function', function: { name: 'lookup' } });
    // The closed type lists exactly the published fields: one of them is there, a typo is not.
    type CreateKeys = keyof NonNullable<Parameters<typeof client.assistant.create>[0]> & string;
    expectTypeOf<'firstMessageMode'>().toExtend<CreateKeys>();
    expectTypeOf<'nmae' extends CreateKeys ? true : false>().toEqualTypeOf<false>();
  });
});
