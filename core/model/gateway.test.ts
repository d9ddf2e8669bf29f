import { afterEach, describe, expect, it } from 'vitest';
import type { Json } from '../messages/index.js';
import { createModelGateway } from './index.js';
import { startFakeModel, type FakeModel, type FakeScript } from './testing.js';
import type { StepInput, StepResult } from './types.js';

let fake: FakeModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const customLlm = (url: string, extra: Json = {}): Json => ({ name: 'Parcel desk', model: { provider: 'custom-llm', url, model: 'my-llm', ...extra } });

async function step(script: FakeScript, extra: Json = {}, input: Partial<StepInput> = {}): Promise<{ result: StepResult; deltas: string[] }> {
  fake = await startFakeModel(script);
  const gateway = createModelGateway({}, { credential: () => undefined });
  const deltas: string[] = [];
  const result = await gateway.step({ assistant: customLlm(fake.url, extra), tools: [], messages: [{ role: 'user', content: 'Hi' }], onDelta: (t) => deltas.push(t), ...input });
  return { result, deltas };
}

describe('model step against a fake OpenAI-compatible server', () => {
  it('streams a text answer: deltas in order, the whole text, timings', async () => {
    const { result, deltas } = await step([{ text: 'Your parcel arrives on Tuesday.' }]);
    expect(result).toMatchObject({ ok: true, text: 'Your parcel arrives on Tuesday.', toolCalls: [], replayed: false });
    expect(deltas).toEqual(['Your ', 'parcel ', 'arrives ', 'on ', 'Tuesday.']);
    if (!result.ok) throw new Error('expected ok');
    expect(result.firstTokenMs).toBeGreaterThanOrEqual(0);
    expect(result.totalMs).toBeGreaterThanOrEqual(result.firstTokenMs);
    expect(result.request.url).toBe(`${fake!.url}/chat/completions`);
  });

  it('holds `slot` from sending the request to the end of the answer, and only then', async () => {
    const seen: number[] = [];
    let holding = false;
    const { result } = await step(
      [{ text: 'Booked.' }],
      {},
      {
        slot: async (exchange) => {
          // The request is built before the slot is asked for, and not sent yet.
          seen.push(fake!.requests.length);
          holding = true;
          try {
            return await exchange();
          } finally {
            holding = false;
            seen.push(fake!.requests.length);
          }
        },
        onDelta: () => expect(holding).toBe(true),
      },
    );
    expect(result).toMatchObject({ ok: true, text: 'Booked.' });
    expect(seen).toEqual([0, 1]);
  });

  it('assembles a tool call whose arguments arrive in four chunks', async () => {
    const args = { parcelId: 'PX-2231', postcode: 'SW1A 1AA' };
    fake = undefined;
    const { result } = await step([{ toolCalls: [{ id: 'call_a', name: 'trackParcel', arguments: args, chunks: 4 }] }]);
    expect(result).toMatchObject({ ok: true, text: '', toolCalls: [{ id: 'call_a', name: 'trackParcel', arguments: JSON.stringify(args) }] });
  });

  it('assembles two tool calls in one answer, by index, after some text', async () => {
    const { result } = await step([
      {
        text: 'Let me check.',
        toolCalls: [
          { name: 'trackParcel', arguments: { parcelId: 'A' }, chunks: 3 },
          { name: 'lookupCustomer', arguments: '{"phone":"+15550100"}', chunks: 2 },
        ],
      },
    ]);
    expect(result).toMatchObject({
      ok: true,
      text: 'Let me check.',
      toolCalls: [
        { id: 'call_1', name: 'trackParcel', arguments: '{"parcelId":"A"}' },
        { id: 'call_2', name: 'lookupCustomer', arguments: '{"phone":"+15550100"}' },
      ],
    });
  });

  it('a malformed chunk fails the step with llm-failed and the cause', async () => {
    const { result } = await step([{ text: 'Hello', malformed: 'data is {not json' }]);
    expect(result).toMatchObject({ ok: false, endedReason: 'call.in-progress.error-providerfault-custom-llm-llm-failed' });
    if (result.ok) throw new Error('expected failure');
    expect(result.message).toContain('malformed stream');
    expect(result.message).toContain('{not json');
  });

  it('no first byte before timeoutSeconds fails with llm-failed naming the timeout', async () => {
    const { result } = await step([{ hang: true }], { timeoutSeconds: 0.2 });
    expect(result).toMatchObject({ ok: false, endedReason: 'call.in-progress.error-providerfault-custom-llm-llm-failed' });
    if (result.ok) throw new Error('expected failure');
    expect(result.message).toContain('no first byte within 0.2 s');
  });

  it.each([
    [401, 'call.in-progress.error-vapifault-custom-llm-401-unauthorized'],
    [403, 'call.in-progress.error-vapifault-custom-llm-403-model-access-denied'],
    [400, 'call.in-progress.error-vapifault-custom-llm-400-bad-request-validation-failed'],
    [429, 'call.in-progress.error-vapifault-custom-llm-429-exceeded-quota'],
    [500, 'call.in-progress.error-providerfault-custom-llm-500-server-error'],
    [503, 'call.in-progress.error-providerfault-custom-llm-503-server-overloaded-error'],
  ])('HTTP %i fails with %s and the body in the message', async (status, reason) => {
    const { result } = await step([{ status, body: { error: { message: `nope ${status}` } } }]);
    expect(result).toMatchObject({ ok: false, endedReason: reason, status });
    if (result.ok) throw new Error('expected failure');
    expect(result.message).toContain(`HTTP ${status}`);
    expect(result.message).toContain(`nope ${status}`);
  });

  it('an unreachable model fails with llm-failed and the connection error', async () => {
    fake = await startFakeModel([]);
    const url = fake.url;
    await fake.close();
    fake = undefined;
    const gateway = createModelGateway({}, { credential: () => undefined });
    const result = await gateway.step({ assistant: customLlm(url), tools: [], messages: [] });
    expect(result).toMatchObject({ ok: false, endedReason: 'call.in-progress.error-providerfault-custom-llm-llm-failed' });
    if (result.ok) throw new Error('expected failure');
    expect(result.message).toMatch(/could not be reached: ECONNREFUSED/);
  });

  it('an abort mid-stream ends the step as cancelled', async () => {
    const controller = new AbortController();
    const { result } = await step([{ text: 'one two three four five six', chunkDelayMs: 20 }], {}, { signal: controller.signal, onDelta: () => controller.abort() });
    expect(result).toMatchObject({ ok: false });
    if (result.ok) throw new Error('expected failure');
    expect(result.message).toContain('cancelled');
  });

  it('reads a plain JSON completion from a server that does not stream', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Plain.', tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }] } }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const gateway = createModelGateway({}, { credential: () => undefined });
    const deltas: string[] = [];
    const result = await gateway.step({ assistant: customLlm(`http://127.0.0.1:${port}/v1`), tools: [], messages: [], onDelta: (t) => deltas.push(t) });
    server.closeAllConnections();
    server.close();
    expect(result).toMatchObject({ ok: true, text: 'Plain.', toolCalls: [{ id: 't1', name: 'f', arguments: '{}' }] });
    expect(deltas).toEqual(['Plain.']);
  });

  it('a non-custom provider goes to the configured endpoint with the configured key and model', async () => {
    fake = await startFakeModel([{ text: 'ok' }, { text: 'ok' }]);
    const gateway = createModelGateway({ url: fake.url, apiKey: 'sk-test', model: { 'openai/gpt-4o': 'llama3.2' } }, { credential: () => undefined });
    const assistant = { model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'Be brief.' }] } };
    expect(gateway.configured(assistant)).toBe(true);
    expect(await gateway.step({ assistant, tools: [], messages: [{ role: 'user', content: 'Hi' }] })).toMatchObject({ ok: true, text: 'ok' });
    const other = { model: { provider: 'anthropic', model: 'claude-x' } };
    expect(await gateway.step({ assistant: other, tools: [], messages: [] })).toMatchObject({ ok: true });
    expect(fake.requests[0]).toMatchObject({ path: '/v1/chat/completions', headers: { authorization: 'Bearer sk-test' } });
    expect(fake.requests[0]!.body).toMatchObject({
      model: 'llama3.2',
      stream: true,
      max_tokens: 250,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(fake.requests[0]!.body).not.toHaveProperty('metadata');
    expect(fake.requests[1]!.body.model).toBe('claude-x');
    expect(gateway.describe()).toContain(fake.url);
  });

  it('a 404 names the model that was asked for; no model name at all is refused before sending', async () => {
    fake = await startFakeModel([{ status: 404, body: { error: { message: 'model "gpt-4o" not found' } } }]);
    const gateway = createModelGateway({ url: fake.url }, { credential: () => undefined });
    const result = await gateway.step({ assistant: { model: { provider: 'openai', model: 'gpt-4o' } }, tools: [], messages: [] });
    expect(result).toMatchObject({ ok: false, status: 404, endedReason: 'call.in-progress.error-vapifault-openai-400-bad-request-validation-failed' });
    if (!result.ok) expect(result.message).toContain('named the model "gpt-4o"; choose another with --llm-model');
    const unnamed = await gateway.step({ assistant: { model: { provider: 'openai' } }, tools: [], messages: [] });
    if (unnamed.ok) throw new Error('expected failure');
    expect(unnamed.message).toContain('--llm-model NAME');
    expect(fake.requests).toHaveLength(1);
  });

  it('without an endpoint a non-custom assistant is not configured, and a step says how to configure one', async () => {
    const gateway = createModelGateway({}, { credential: () => undefined });
    const assistant = { model: { provider: 'openai', model: 'gpt-4o' } };
    expect(gateway.configured(assistant)).toBe(false);
    expect(gateway.configured({ model: { provider: 'custom-llm', url: 'http://127.0.0.1:1/v1' } })).toBe(true);
    expect(gateway.configured({ model: { provider: 'custom-llm' } })).toBe(false);
    const result = await gateway.step({ assistant, tools: [], messages: [] });
    expect(result).toMatchObject({ ok: false, endedReason: 'call.in-progress.error-providerfault-openai-llm-failed' });
    if (result.ok) throw new Error('expected failure');
    expect(result.message).toContain('--llm URL');
  });
});
