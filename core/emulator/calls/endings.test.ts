// How calls end: magic customer numbers, a scenario with a squad handoff, serverMessages
// filtering, and the simulated clock's speed. Loopback servers stand in for the developer's.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { loadScenario, MAGIC_NUMBERS, startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { SimClock } from './clock.js';
import { startHook } from './testing.js';
import type { Hook } from './testing.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
let app: Hook;
const started: Emulator[] = [];

async function emulator(options: Parameters<typeof startEmulator>[0]): Promise<Emulator> {
  const emu = await startEmulator(options);
  started.push(emu);
  return emu;
}
async function post(emu: Emulator, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}
async function get(emu: Emulator, path: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${emu.url}${path}`, { headers })).json()) as Record<string, unknown>;
}
function ofCall(id: unknown) {
  return app.received.filter((r) => (r.message.call as { id?: string } | undefined)?.id === id).map((r) => r.message);
}

beforeAll(async () => {
  app = await startHook((r) =>
    r.message.type === 'tool-calls' ? { json: { results: [{ toolCallId: (r.message.toolCallList as { id: string }[])[0]?.id, result: 'Your balance is $12.' }] } } : undefined,
  );
});
afterAll(async () => {
  await Promise.all(started.map((e) => e.close()));
  await app.close();
});

describe('magic customer numbers', () => {
  it.each(MAGIC_NUMBERS.map((m) => [m.number, m] as const))(
    '%s ends with its endedReason',
    async (_n, magic) => {
      const emu = await emulator({ speed: 2000 });
      const call = await post(emu, '/call', { assistant: { name: 'M', firstMessage: 'Hi!', voicemailMessage: 'Please call back.', server: { url: app.url } }, customer: { number: magic.number } });
      await emu.calls.idle();
      const ended = await get(emu, `/call/${String(call.id)}`);
      expect(ended).toMatchObject({ status: 'ended', endedReason: magic.endedReason });
      const messages = ofCall(call.id);
      expect(messages.filter((m) => m.type === 'status-update').map((m) => m.status)).toEqual(['queued', ...magic.path, 'ended']);
      expect(messages.at(-1)).toMatchObject({ type: 'end-of-call-report', endedReason: magic.endedReason });
      if (magic.endedReason === 'voicemail') expect((ended.artifact as { transcript: string }).transcript).toBe('AI: Please call back.');
      expect(await messageProblems(messages)).toEqual([]);
    },
    30_000,
  );
});

describe('a scenario file with a squad handoff', () => {
  it('hands the call to the named member, whose server and tools take over', async () => {
    const scenario = await loadScenario(join(import.meta.dirname, '../../../fixtures/scenarios/squad-handoff.yaml'));
    const emu = await emulator({ speed: 2000, scenario });
    const billing = await post(emu, '/assistant', {
      name: 'Billing',
      firstMessage: 'Billing here.',
      model: {
        provider: 'openai',
        model: 'gpt-4o-mini',
        tools: [{ type: 'function', function: { name: 'lookupBalance', parameters: { type: 'object', properties: { accountId: { type: 'string' } } } } }],
      },
      server: { url: `${app.url}/billing` },
    });
    const squad = await post(emu, '/squad', {
      members: [
        { assistant: { name: 'Reception', firstMessage: 'Reception, hello.', serverMessages: ['status-update', 'transfer-update', 'assistant.started'], server: { url: `${app.url}/reception` } } },
        { assistantId: billing.id },
      ],
    });
    const call = await post(emu, '/call', { squadId: squad.id, customer: { number: '+14155550111' } });
    await emu.calls.idle();
    const ended = await get(emu, `/call/${String(call.id)}`);
    expect(ended.endedReason).toBe('customer-ended-call');
    const transcript = (ended.artifact as { transcript: string }).transcript.split('\n');
    expect(transcript).toEqual([
      'AI: Reception, hello.',
      'User: Hi, I have a question about my bill.',
      'AI: Billing here.',
      'User: What is my balance?',
      'AI: Your balance is $12.',
      'User: Thanks, bye.',
    ]);
    const received = app.received.filter((r) => (r.message.call as { id?: string } | undefined)?.id === call.id);
    const started = received.filter((r) => r.message.type === 'assistant.started').map((r) => (r.message.newAssistant as { name: string }).name);
    expect(started).toEqual(['Reception', 'Billing']);
    const toolCall = received.find((r) => r.message.type === 'tool-calls');
    expect(toolCall?.path).toBe('/billing');
    expect((toolCall?.message.toolCallList as { function: { arguments: string } }[])[0]?.function.arguments).toBe('{"accountId":"A-42"}');
    expect(received.at(-1)).toMatchObject({ path: '/billing', message: { type: 'end-of-call-report' } });
    expect(received.find((r) => r.message.type === 'status-update')?.path).toBe('/reception');
    const transfer = received.find((r) => r.message.type === 'transfer-update');
    expect(transfer?.path).toBe('/reception');
    expect(transfer?.message).toMatchObject({ destination: { type: 'assistant', assistantName: 'Billing' }, toAssistant: { name: 'Billing' }, fromAssistant: { name: 'Reception' } });
    expect(await messageProblems(received.map((r) => r.message))).toEqual([]);
  }, 30_000);
});

describe('serverMessages', () => {
  it('sends only what the assistant subscribes to, final transcripts included by their own name', async () => {
    const emu = await emulator({ speed: 2000 });
    const call = await post(emu, '/call', {
      assistant: { name: 'F', firstMessage: 'Hello there.', serverMessages: ['end-of-call-report', 'transcript[transcriptType="final"]'], server: { url: app.url } },
      customer: { number: '+14155550122' },
    });
    await emu.calls.idle();
    const messages = ofCall(call.id);
    expect(new Set(messages.map((m) => m.type))).toEqual(new Set(['transcript', 'end-of-call-report']));
    expect(messages.filter((m) => m.type === 'transcript').every((m) => m.transcriptType === 'final')).toBe(true);
    expect(messages.filter((m) => m.type === 'transcript').map((m) => m.transcript)[0]).toBe('Hello there.');
    expect(await messageProblems(messages)).toEqual([]);
  }, 30_000);

  it('sends partial transcripts, model output and speech starts when asked', async () => {
    const emu = await emulator({ speed: 2000 });
    const call = await post(emu, '/call', {
      assistant: { name: 'P', firstMessage: 'One two three four.', serverMessages: ['transcript', 'model-output', 'assistant.speechStarted'], server: { url: app.url } },
      customer: { number: '+14155550123' },
    });
    await emu.calls.idle();
    const messages = ofCall(call.id);
    expect(messages.find((m) => m.type === 'transcript' && m.transcriptType === 'partial')).toMatchObject({ role: 'assistant', transcript: 'One two' });
    expect(messages.some((m) => m.type === 'model-output')).toBe(true);
    expect(messages.some((m) => m.type === 'assistant.speechStarted')).toBe(true);
    expect(await messageProblems(messages)).toEqual([]);
  }, 30_000);
});

describe('--speed', () => {
  it('runs the clock N times faster: simulated durations, real time divided by N', async () => {
    const clock = new SimClock(50);
    const t0 = performance.now();
    const s0 = clock.now();
    await clock.sleep(2000);
    const real = performance.now() - t0;
    expect(real).toBeGreaterThanOrEqual(35);
    expect(real).toBeLessThan(1000);
    expect(clock.now() - s0).toBe(2000); // exactly: the clock moves by what the call does
    expect(() => new SimClock(0)).toThrow(/positive/);
    // Held while waiting for a server: real time passes as real time, not N times faster.
    const h0 = clock.now();
    await clock.hold(new Promise((r) => setTimeout(r, 100)));
    const held = clock.now() - h0;
    expect(held).toBeGreaterThanOrEqual(95);
    expect(held).toBeLessThan(1000);

    const emu = await emulator({ speed: 100 });
    const t1 = performance.now();
    const call = await post(emu, '/call', { assistant: { name: 'S', firstMessage: 'Hello, this is a call at speed one hundred.' }, customer: { number: '+14155550124' } });
    await emu.calls.idle();
    const wall = performance.now() - t1;
    const ended = await get(emu, `/call/${String(call.id)}`);
    const simulated = Date.parse(String(ended.endedAt)) - Date.parse(String(ended.createdAt));
    expect(simulated).toBeGreaterThan(10_000); // a default call lasts tens of simulated seconds
    expect(wall).toBeLessThan(simulated / 10);
  }, 30_000);
});
