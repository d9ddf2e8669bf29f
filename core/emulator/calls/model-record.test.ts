// The model's side of a call in the record: each model request (secrets masked) with its answer,
// each tool call with the server's answer, and each turn's latencies, tied to the call.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModel } from '../../model/testing.js';
import { startEmulator } from '../index.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmulatorRecord, MAX_BODY_TEXT, MAX_MODEL_BODIES } from '../store/record.js';
import { keptBody, safeUrl } from './model-record.js';
import { startHook } from './testing.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
type Obj = Record<string, unknown>;

let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.map((o) => o.close()));
  open = [];
});

const SCENARIO = { turns: [{ say: 'Where is parcel 123?' }] };
const PARCELS = { name: 'Parcels', firstMessage: 'Parcel desk.', model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You track parcels.' }] } };

async function modelSteps(model: { url?: string; model?: string; record?: string; replay?: string }) {
  const emu = await startEmulator({ speed: 500, scenario: SCENARIO, model });
  open.push(emu);
  const res = await fetch(`${emu.url}/call`, { method: 'POST', headers, body: JSON.stringify({ customer: { number: '+14155550177' }, assistant: PARCELS }) });
  const call = (await res.json()) as { id: string };
  await emu.calls.idle();
  return emu.record.list({ callId: call.id }).filter((e) => e.kind === 'call.model');
}

describe('the record of a call run by a model', () => {
  it('marks the steps a cassette answered as replayed', async () => {
    const fake = await startFakeModel([{ text: 'On its way.' }]);
    open.push(fake);
    const cassette = join(mkdtempSync(join(tmpdir(), 'voice-cassette-')), 'calls.json');
    const live = await modelSteps({ url: fake.url, model: 'fake-llm', record: cassette });
    expect(live.map((e) => e.replayed)).toEqual([false]);
    const replayed = await modelSteps({ model: 'fake-llm', replay: cassette });
    expect(replayed.map((e) => [e.ok, e.replayed, e.text])).toEqual([[true, true, 'On its way.']]);
  });

  it('keeps the request bodies of the newest model steps only', () => {
    const record = new EmulatorRecord();
    const step = (turn: number) => record.add({ kind: 'call.model', callId: 'c', turn, step: 1, request: { url: 'u', body: { messages: [] } }, ok: true });
    const first = step(0);
    for (let i = 1; i <= MAX_MODEL_BODIES; i++) step(i);
    expect(first).toMatchObject({ request: { url: 'u', body: {} }, bodyForgotten: true });
    expect(record.list().at(-1)).toMatchObject({ request: { body: { messages: [] } } });
  });

  it('holds each step, tool call and turn, tied to the call, with the system prompt and no secret', async () => {
    const fake = await startFakeModel([{ toolCalls: [{ name: 'trackParcel', arguments: { parcelId: '123' } }] }, { text: 'It arrives Tuesday.' }]);
    const tools = await startHook((r) => ({ json: { results: [{ toolCallId: ((r.message.toolCallList as Obj[])[0] as Obj).id, result: 'Out for delivery.' }] } }));
    const emu = await startEmulator({ speed: 500, scenario: { turns: [{ say: 'Where is parcel 123?' }] }, model: { url: fake.url, model: 'fake-llm', apiKey: 'sk-live-secret' } });
    open.push(emu, fake, tools);
    const assistant = {
      name: 'Parcels',
      firstMessage: 'Parcel desk.',
      metadata: { apiKey: 'meta-secret' },
      model: {
        provider: 'openai',
        model: 'gpt-4o-mini',
        messages: [{ role: 'system', content: 'You track parcels.' }],
        tools: [{ type: 'function', function: { name: 'trackParcel', parameters: { type: 'object', properties: { parcelId: { type: 'string' } } } }, server: { url: tools.url } }],
      },
    };
    const res = await fetch(`${emu.url}/call`, { method: 'POST', headers, body: JSON.stringify({ customer: { number: '+14155550177' }, assistant }) });
    const call = (await res.json()) as { id: string };
    await emu.calls.idle();
    const events = emu.record.list({ callId: call.id });
    const steps = events.filter((e) => e.kind === 'call.model');
    expect(steps.map((e) => [e.turn, e.step, e.ok])).toEqual([
      [1, 1, true],
      [1, 2, true],
    ]);
    const first = steps[0]!;
    expect((first.request.body as { messages: Obj[] }).messages[0]).toEqual({ role: 'system', content: 'You track parcels.' });
    expect(first.request.url).toBe(`${fake.url}/chat/completions`);
    expect(first.toolCalls?.[0]?.name).toBe('trackParcel');
    expect(first.replayed).toBe(false);
    expect(steps[1]!.text).toBe('It arrives Tuesday.');
    const tool = events.find((e) => e.kind === 'call.tool');
    expect(tool).toMatchObject({ turn: 1, step: 1, name: 'trackParcel', arguments: '{"parcelId":"123"}', result: 'Out for delivery.' });
    const turn = events.find((e) => e.kind === 'call.turn');
    expect(turn).toMatchObject({ turn: 1, steps: 2 });
    if (turn?.kind !== 'call.turn') throw new Error('no turn');
    expect(turn.totalMs).toBeGreaterThanOrEqual(turn.toolMs);
    expect(JSON.stringify(events.filter((e) => e.kind.startsWith('call.')))).not.toContain('secret');
  });

  it('keeps a long request small: the system prompt and the newest messages', () => {
    const messages = [{ role: 'system', content: 'Be brief.' }, ...Array.from({ length: 400 }, (_, i) => ({ role: 'user', content: `line ${i} ${'x'.repeat(500)}` }))];
    const kept = keptBody({ model: 'm', messages, api_key: 'abc' });
    const body = kept.body as { messages: { content: string }[]; api_key: string };
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(MAX_BODY_TEXT);
    expect(body.messages[0]?.content).toBe('Be brief.');
    expect(body.messages.at(-1)?.content).toContain('line 399');
    expect(kept.omittedMessages).toBe(401 - body.messages.length);
    expect(body.api_key).not.toBe('abc');
    expect(safeUrl('https://u:p@example.test/v1?api_key=zzz&x=1')).toBe('https://example.test/v1?api_key=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2&x=1');
  });
});
