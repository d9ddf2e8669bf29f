import { afterEach, describe, expect, it } from 'vitest';
import type { Json } from '../messages/index.js';
import { createModelGateway, runAssistantTurn } from './index.js';
import { startFakeModel, type FakeModel, type FakeReply } from './testing.js';
import type { ModelToolCall, TurnHooks } from './types.js';

let fake: FakeModel;
afterEach(() => fake?.close());

const track = { type: 'function', function: { name: 'trackParcel', parameters: { type: 'object', properties: { parcelId: { type: 'string' } } } } };
const tools: Json[] = [
  track,
  { type: 'function', function: { name: 'lookupCustomer' } },
  { type: 'endCall' },
  { type: 'transferCall', destinations: [{ type: 'number', number: '+15550199' }] },
  { type: 'handoff', destinations: [{ type: 'assistant', assistantName: 'Returns' }] },
];

async function turn(replies: FakeReply[], results: Record<string, string> = {}, maxSteps?: number) {
  fake = await startFakeModel(replies);
  const gateway = createModelGateway({}, { credential: () => undefined });
  const called: { call: ModelToolCall; tool: Json | undefined }[] = [];
  const deltas: string[] = [];
  const steps: unknown[] = [];
  const hooks: TurnHooks = {
    callTool: async (call, tool) => {
      called.push({ call, tool });
      return call.name in results ? { result: results[call.name] } : { error: 'no such tool' };
    },
    onDelta: (t) => deltas.push(t),
    onStep: (s) => steps.push(s),
  };
  const assistant = { model: { provider: 'custom-llm', url: fake.url, model: 'm', messages: [{ role: 'system', content: 'Track parcels.' }] } };
  const result = await runAssistantTurn(gateway, { assistant, tools, messages: [{ role: 'user', content: 'Where is PX-1?' }] }, hooks, maxSteps ? { maxSteps } : undefined);
  return { result, called, deltas, steps };
}

describe('runAssistantTurn', () => {
  it('text without tool calls ends the turn', async () => {
    const { result, called, deltas } = await turn([{ text: 'Hello there.' }]);
    expect(result).toMatchObject({ text: 'Hello there.', messages: [{ role: 'assistant', content: 'Hello there.' }] });
    expect(result.action).toBeUndefined();
    expect(result.failure).toBeUndefined();
    expect(called).toEqual([]);
    expect(deltas.join('')).toBe('Hello there.');
    expect(result.latencies.modelMs).toHaveLength(1);
  });

  it("runs the model's function calls through the hooks and sends their results, in order, with their ids", async () => {
    const { result, called, steps } = await turn(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'trackParcel', arguments: { parcelId: 'PX-1' }, chunks: 4 },
            { id: 'c2', name: 'lookupCustomer', arguments: {} },
          ],
        },
        { text: 'It arrives Tuesday, Ada.' },
      ],
      { trackParcel: '{"eta":"Tuesday"}', lookupCustomer: '{"name":"Ada"}' },
    );
    expect(called.map((c) => [c.call.name, c.call.arguments])).toEqual([
      ['trackParcel', '{"parcelId":"PX-1"}'],
      ['lookupCustomer', '{}'],
    ]);
    expect(called[0]!.tool).toBe(track);
    const second = (await fake.request(1)).body.messages as Json[];
    expect(second.slice(-3)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'trackParcel', arguments: '{"parcelId":"PX-1"}' } },
          { id: 'c2', type: 'function', function: { name: 'lookupCustomer', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"eta":"Tuesday"}' },
      { role: 'tool', tool_call_id: 'c2', content: '{"name":"Ada"}' },
    ]);
    expect(result.text).toBe('It arrives Tuesday, Ada.');
    expect(result.messages).toHaveLength(4);
    expect(result.latencies.modelMs).toHaveLength(2);
    expect(result.latencies.toolMs).toHaveLength(2);
    expect(steps).toHaveLength(2);
  });

  it("a tool's error goes back to the model as the tool message", async () => {
    await turn([{ toolCalls: [{ id: 'e1', name: 'lookupCustomer' }] }, { text: 'Sorry.' }]);
    expect(((await fake.request(1)).body.messages as Json[]).at(-1)).toEqual({ role: 'tool', tool_call_id: 'e1', content: 'Error: no such tool' });
  });

  it('endCall ends the turn with the endCall action', async () => {
    const { result, called } = await turn([{ text: 'Goodbye!', toolCalls: [{ name: 'endCall' }] }]);
    expect(result.action).toEqual({ kind: 'endCall', tool: tools[2] });
    expect(result.text).toBe('Goodbye!');
    expect(called).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('transferCall returns the transfer with the destination the model chose', async () => {
    const { result } = await turn([{ toolCalls: [{ name: 'transferCall', arguments: { destination: '+15550199' }, chunks: 3 }] }]);
    expect(result.action).toEqual({ kind: 'transferCall', tool: tools[3], arguments: { destination: '+15550199' } });
  });

  it('a handoff names the member the model chose', async () => {
    const { result } = await turn([{ toolCalls: [{ name: 'handoff_to_Returns', arguments: { destination: 'Returns' } }] }]);
    expect(result.action).toMatchObject({ kind: 'handoff', tool: tools[4], assistantName: 'Returns' });
  });

  it('a failing step fails the turn with its endedReason', async () => {
    const { result } = await turn([{ status: 429, body: { error: { message: 'slow down' } } }]);
    expect(result.failure).toMatchObject({ endedReason: 'call.in-progress.error-vapifault-custom-llm-429-exceeded-quota' });
    expect(result.failure!.message).toContain('slow down');
  });

  it('maxSteps stops a model that only calls tools', async () => {
    const loop = Array.from({ length: 3 }, (_, i) => ({ toolCalls: [{ id: `l${i}`, name: 'trackParcel', arguments: {} }] }));
    const { result, called } = await turn(loop, { trackParcel: 'again' }, 3);
    expect(called).toHaveLength(3);
    expect(result.failure).toMatchObject({ endedReason: 'call.in-progress.error-providerfault-custom-llm-llm-failed' });
    expect(result.failure!.message).toContain('3 steps');
  });
});
