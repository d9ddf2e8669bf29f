import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Json } from '../messages/index.js';
import { createModelGateway, requestHash, runAssistantTurn } from './index.js';
import { startFakeModel, type FakeModel } from './testing.js';
import type { ModelConfig, TurnResult } from './types.js';

let dir: string;
let fake: FakeModel | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voice-cassette-'));
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const tools: Json[] = [{ type: 'function', function: { name: 'trackParcel' } }, { type: 'endCall' }];
const assistantAt = (url: string, prompt = 'You track parcels.'): Json => ({
  metadata: { tenant: 'acme' },
  model: { provider: 'custom-llm', url, model: 'm', credentialId: 'cred', headers: { 'x-api-key': 'header-secret' }, messages: [{ role: 'system', content: prompt }] },
});

async function conversation(config: ModelConfig, url: string, prompt?: string, callId = 'call-1'): Promise<TurnResult[]> {
  const gateway = createModelGateway(config, { credential: () => ({ provider: 'custom-llm', apiKey: 'cred-secret' }) });
  const assistant = assistantAt(url, prompt);
  const context = { call: { id: callId, createdAt: new Date().toISOString() }, customer: { number: '+15551234' } };
  const hooks = { callTool: async () => ({ result: '{"eta":"Tuesday"}' }) };
  const first = await runAssistantTurn(gateway, { assistant, tools, messages: [{ role: 'user', content: 'Where is PX-1?' }], context, label: `call ${callId} turn 1` }, hooks);
  const second = await runAssistantTurn(
    gateway,
    { assistant, tools, messages: [{ role: 'user', content: 'Where is PX-1?' }, ...first.messages, { role: 'user', content: 'Thanks, bye.' }], context, label: `call ${callId} turn 2` },
    hooks,
  );
  return [first, second];
}

describe('cassettes', () => {
  it('record, then replay with no model reachable: the same answers; no key or header in the file', async () => {
    fake = await startFakeModel([
      { toolCalls: [{ id: 'c1', name: 'trackParcel', arguments: { parcelId: 'PX-1' }, chunks: 4 }] },
      { text: 'It arrives on Tuesday.' },
      { text: 'Bye!', toolCalls: [{ id: 'c2', name: 'endCall' }] },
    ]);
    const file = join(dir, 'model.cassette.json');
    const url = fake.url;
    const recorded = await conversation({ record: file, apiKey: 'sk-config-secret' }, url);
    expect(recorded[0]!.text).toBe('It arrives on Tuesday.');
    expect(recorded[1]!.action?.kind).toBe('endCall');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer cred-secret');
    await fake.close();
    fake = undefined;

    const text = readFileSync(file, 'utf8');
    for (const secret of ['cred-secret', 'header-secret', 'sk-config-secret', 'authorization', 'Bearer']) expect(text).not.toContain(secret);
    expect(Object.keys((JSON.parse(text) as { exchanges: Json }).exchanges)).toHaveLength(3);

    // Another run: the call has another id and time, the model is gone.
    const deltas: string[] = [];
    const gateway = createModelGateway({ replay: file }, { credential: () => undefined });
    expect(gateway.describe()).toContain(file);
    const replayed = await conversation({ replay: file }, url, undefined, 'call-2');
    expect(replayed.map((t) => [t.text, t.action?.kind, t.messages])).toEqual(recorded.map((t) => [t.text, t.action?.kind, t.messages]));
    const one = await gateway.step({
      assistant: assistantAt(url),
      tools,
      messages: [{ role: 'user', content: 'Where is PX-1?' }, recorded[0]!.messages[0]!, { role: 'tool', tool_call_id: 'c1', content: '{"eta":"Tuesday"}' }],
      context: { call: { id: 'call-3' }, customer: { number: '+15551234' } },
      onDelta: (d) => deltas.push(d),
    });
    expect(one).toMatchObject({ ok: true, replayed: true, text: 'It arrives on Tuesday.', toolCalls: [] });
    expect(deltas).toEqual(['It ', 'arrives ', 'on ', 'Tuesday.']);
  });

  it('a changed prompt misses the cassette with a message naming the turn, the file and what changed', async () => {
    fake = await startFakeModel([{ toolCalls: [{ id: 'c1', name: 'trackParcel' }] }, { text: 'Tuesday.' }, { text: 'Bye.' }]);
    const file = join(dir, 'c.json');
    await conversation({ record: file }, fake.url);
    const [first] = await conversation({ replay: file }, fake.url, 'You track parcels. Be terse.', 'call-2');
    expect(fake.requests).toHaveLength(3);
    expect(first!.failure?.endedReason).toBe('call.in-progress.error-providerfault-custom-llm-llm-failed');
    expect(first!.failure?.message).toContain('call call-2 turn 1');
    expect(first!.failure?.message).toContain(file);
    expect(first!.failure?.message).toContain('messages[0] (system)');
  });

  it('a missing cassette file fails the step saying so', async () => {
    const gateway = createModelGateway({ replay: join(dir, 'nope.json') }, { credential: () => undefined });
    const result = await gateway.step({ assistant: assistantAt('http://127.0.0.1:9/v1'), tools: [], messages: [], label: 'chat turn 1' });
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.message).toMatch(/nope\.json cannot be read \(ENOENT\)/);
  });

  it('keeps each answer to a request asked again, and replays them in the order recorded, then round again', async () => {
    fake = await startFakeModel([{ text: 'Monday.' }, { text: 'Tuesday.' }]);
    const file = join(dir, 'repeats.json');
    const recorder = createModelGateway({ record: file }, { credential: () => ({ apiKey: 'k' }) });
    const asked = { assistant: assistantAt(fake.url), tools: [], messages: [{ role: 'user' as const, content: 'When?' }] };
    const recorded = [await recorder.step(asked), await recorder.step(asked)].map((r) => (r.ok ? r.text : r.message));
    expect(recorded).toEqual(['Monday.', 'Tuesday.']);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { exchanges: Record<string, { repeats?: unknown[] }> };
    expect(Object.values(saved.exchanges)).toHaveLength(1);
    expect(Object.values(saved.exchanges)[0]!.repeats).toHaveLength(1);
    await fake.close();
    fake = undefined;

    const player = createModelGateway({ replay: file }, { credential: () => undefined });
    const replayed = [];
    for (let i = 0; i < 3; i++) {
      const r = await player.step({ ...asked, assistant: assistantAt('http://127.0.0.1:9/v1') });
      replayed.push(r.ok ? r.text : r.message);
    }
    expect(replayed).toEqual(['Monday.', 'Tuesday.', 'Monday.']);
  });

  it('the hash ignores key order and the call and phoneNumber objects, not the conversation', () => {
    const a = { model: 'm', messages: [{ role: 'user', content: 'hi' }], call: { id: '1' }, phoneNumber: { id: 'x' } };
    const b = { call: { id: '2' }, messages: [{ content: 'hi', role: 'user' }], model: 'm' };
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash({ ...b, messages: [{ role: 'user', content: 'hello' }] })).not.toBe(requestHash(b));
  });

  it('a cassette that cannot be written fails the step saying so', async () => {
    fake = await startFakeModel([{ text: 'hi' }]);
    const gateway = createModelGateway({ record: join(dir, 'missing-dir', 'c.json') }, { credential: () => ({ apiKey: 'k' }) });
    const result = await gateway.step({ assistant: assistantAt(fake.url), tools: [], messages: [] });
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.message).toMatch(/c\.json cannot be written \(ENOENT\)/);
  });

  it('record and replay together is refused', () => {
    expect(() => createModelGateway({ record: 'a', replay: 'b' }, { credential: () => undefined })).toThrow(/either recorded or replayed/);
  });
});
