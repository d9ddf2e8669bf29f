// How calls end: magic customer numbers, a scenario with a squad handoff, serverMessages
// filtering, and the simulated clock's speed. Loopback servers stand in for the developer's.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

/** Real time under the test's control: timers fire only when it is advanced. */
function manualTime() {
  let at = 0;
  const timers = new Map<number, { due: number; fn: () => void }>();
  let next = 0;
  return {
    requested: [] as number[],
    now: () => at,
    setTimeout(fn: () => void, ms: number): unknown {
      this.requested.push(ms);
      timers.set(++next, { due: at + ms, fn });
      return next;
    },
    clearTimeout: (handle: unknown) => void timers.delete(handle as number),
    /** Moves real time on by `ms`, firing the timers that fall due. */
    advance(ms: number): void {
      at += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].due - b[1].due)) {
        if (t.due > at) continue;
        timers.delete(id);
        t.fn();
      }
    },
  };
}

describe('--speed', () => {
  it('runs the clock N times faster: a pause of d simulated ms waits d/N real ms and moves the clock by exactly d', async () => {
    const real = manualTime();
    const clock = new SimClock(50, real);
    const s0 = clock.now();
    let done = false;
    const slept = clock.sleep(2000).then(() => (done = true));
    expect(real.requested).toEqual([40]);
    real.advance(39);
    await Promise.resolve();
    expect(done).toBe(false);
    real.advance(1);
    await slept;
    expect(clock.now() - s0).toBe(2000); // exactly: the clock moves by what the call does
    expect(() => new SimClock(0)).toThrow(/positive/);
  });

  it('an aborted pause moves the clock by the simulated part that passed', async () => {
    const real = manualTime();
    const clock = new SimClock(50, real);
    const s0 = clock.now();
    const abort = new AbortController();
    const slept = clock.sleep(2000, abort.signal);
    real.advance(10);
    abort.abort();
    await slept;
    expect(clock.now() - s0).toBe(500);
  });

  it('held while waiting for a server, it advances by the real time the wait took, not N times faster', async () => {
    const real = manualTime();
    const clock = new SimClock(50, real);
    const h0 = clock.now();
    let answer!: () => void;
    const held = clock.hold(new Promise<void>((r) => (answer = r)));
    real.advance(100);
    answer();
    await held;
    expect(clock.now() - h0).toBe(100);
  });

  it("the emulator's --speed drives every call's clock: the call's pauses run on clocks N times faster", async () => {
    const speeds: number[] = [];
    let pausedMs = 0;
    const sleep = SimClock.prototype.sleep;
    const spy = vi.spyOn(SimClock.prototype, 'sleep').mockImplementation(function (this: SimClock, ms, signal) {
      speeds.push(this.speed);
      pausedMs += ms;
      return sleep.call(this, ms, signal);
    });
    try {
      const emu = await emulator({ speed: 100 });
      const call = await post(emu, '/call', { assistant: { name: 'S', firstMessage: 'Hello, this is a call at speed one hundred.' }, customer: { number: '+14155550124' } });
      await emu.calls.idle();
      const ended = await get(emu, `/call/${String(call.id)}`);
      const simulated = Date.parse(String(ended.endedAt)) - Date.parse(String(ended.createdAt));
      expect(simulated).toBeGreaterThan(10_000); // a default call lasts tens of simulated seconds
      expect(speeds.length).toBeGreaterThan(0);
      expect(new Set(speeds)).toEqual(new Set([100]));
      // The call's timeline is made of those pauses.
      expect(pausedMs).toBeGreaterThan(10_000);
    } finally {
      spy.mockRestore();
    }
  }, 30_000);
});
