// Faults a week of `voice dev` meets: the developer's server hanging, resetting connections,
// answering garbage or 10 MB, while other calls run beside; a full disk under the data file; a
// web-call peer sending garbage and vanishing; the clock jumping (speed changed live, a stall).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { localSocketUrl } from '../webcall/local-protocol.js';
import { messageProblems } from '../messages/testing.js';
import { startEmulator } from './index.js';
import type { Emulator } from './index.js';
import { RECORDED_ANSWER_CHARS } from './calls/index.js';
import { startHook, until } from './calls/testing.js';
import type { Hook } from './calls/testing.js';

const H = { authorization: 'Bearer k', 'content-type': 'application/json' };
const model = (tools: unknown[] = []) => ({ provider: 'openai', model: 'gpt-4o-mini', tools });
const fn = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } });

describe("the developer's server misbehaving", () => {
  let emu: Emulator;
  let good: Hook;
  let bad: Hook;
  const huge = JSON.stringify({ results: [{ toolCallId: 'x', result: 'y'.repeat(10 * 1024 * 1024) }] });

  beforeAll(async () => {
    emu = await startEmulator({ speed: 500 });
    good = await startHook((r) =>
      r.message.type === 'tool-calls' ? { json: { results: [{ toolCallId: (r.message as { toolCallList?: { id: string }[] }).toolCallList?.[0]?.id, result: 'ok' }] } } : undefined,
    );
    bad = await startHook((r) => {
      if (r.path === '/hang') return { hang: true };
      if (r.path === '/reset') return { reset: true };
      if (r.path === '/garbage') return { text: '\u0000\u0001{{{ not json' };
      if (r.path === '/huge') return { text: huge };
      if (r.path === '/slow') return { delayMs: 300, json: {} };
      return undefined;
    });
  });
  afterAll(async () => {
    await emu.close();
    await good.close();
    await bad.close();
  });

  // The broken server gets the message whose answer matters and the report (each hang costs its real timeout).
  async function place(server: string, serverMessages?: string[], timeoutSeconds = 20): Promise<string> {
    const res = await fetch(`${emu.url}/call`, {
      method: 'POST',
      headers: H,
      body: JSON.stringify({
        customer: { number: '+14155550123' },
        assistant: { name: 'F', server: { url: server, timeoutSeconds }, model: model([fn('lookup')]), ...(serverMessages ? { serverMessages } : {}) },
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  it.each(['hang', 'reset', 'garbage', 'huge', 'slow'])(
    'a server that answers "%s" still sees its call end as the platform ends it, and a healthy call beside it is untouched',
    async (fault) => {
      const [broken, healthy] = await Promise.all([place(`${bad.url}/${fault}`, ['tool-calls', 'end-of-call-report'], fault === 'hang' ? 1 : 20), place(good.url)]);
      const [b, h] = await Promise.all([emu.waitForCall(broken, 'ended', { timeoutMs: 60_000 }), emu.waitForCall(healthy, 'ended', { timeoutMs: 60_000 })]);
      expect(b.endedReason).toBe('customer-ended-call');
      expect(h.endedReason).toBe('customer-ended-call');
      // The healthy call got every message, answered, and its tool result is the server's.
      const mine = emu.deliveries(healthy);
      expect(mine.length).toBeGreaterThan(3);
      expect(mine.filter((d) => d.error)).toEqual([]);
      expect(mine.map((d) => d.type)).toContain('end-of-call-report');
      const results = (h.messages as { role: string; result?: string }[]).filter((m) => m.role === 'tool_call_result');
      expect(results.map((r) => r.result)).toEqual(['ok']);
      expect(await messageProblems(mine.map((d) => (d.request.body as { message: Record<string, unknown> }).message))).toEqual([]);
      // The broken call's deliveries are recorded with what went wrong, and kept small.
      const theirs = emu.deliveries(broken);
      expect(theirs.map((d) => d.type)).toContain('end-of-call-report');
      for (const d of theirs) expect(JSON.stringify(d.answer ?? null).length).toBeLessThan(RECORDED_ANSWER_CHARS + 4096);
      const errors = new Set(theirs.map((d) => d.error));
      if (fault === 'hang') expect(errors).toEqual(new Set(['no answer within 1 s']));
      if (fault === 'reset') expect([...errors].every((e) => typeof e === 'string' && e.startsWith('could not connect'))).toBe(true);
      if (fault === 'garbage') expect(errors).toEqual(new Set(['malformed JSON in the answer']));
      if (fault === 'huge' || fault === 'slow') expect(errors).toEqual(new Set([undefined]));
      if (fault === 'huge') expect(theirs.find((d) => d.type === 'tool-calls')?.answer).toMatchObject({ truncated: true, chars: huge.length });
    },
    120_000,
  );
});

// A real full disk: a 256 KiB tmpfs mounted for the test (root only; CI runs as root).
const root = process.getuid?.() === 0;
describe.skipIf(!root)('a full disk under the data file', () => {
  const mount = mkdtempSync(join(tmpdir(), 'voice-full-'));
  beforeAll(() => execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount]));
  afterAll(() => {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it('keeps serving, says so, keeps the change in memory and writes it once there is room again', async () => {
    const dir = join(mount, 'data');
    mkdirSync(dir);
    const file = join(dir, 'voice.json');
    const said: string[] = [];
    const emu = await startEmulator({ dataFile: file, warn: (line) => said.push(line) });
    try {
      // Fill the disk to the last byte.
      const filler = join(mount, 'filler');
      let size = 0;
      for (let chunk = 64 * 1024; chunk >= 1; chunk = Math.floor(chunk / 2)) {
        for (;;) {
          try {
            writeFileSync(filler, Buffer.alloc(chunk), { flag: 'a' });
            size += chunk;
          } catch {
            break;
          }
        }
      }
      expect(size).toBeGreaterThan(0);
      const made = await fetch(`${emu.url}/assistant`, { method: 'POST', headers: H, body: JSON.stringify({ name: 'Kept in memory', firstMessage: 'x'.repeat(4096) }) });
      expect(made.status).toBe(201);
      expect(made.headers.get('warning')).toMatch(/not yet saved to the data file: ENOSPC/);
      const { id } = (await made.json()) as { id: string };
      expect(said.join('')).toMatch(/cannot write the data file .*ENOSPC.*kept in memory/);
      // Still serving, and the object is there.
      const got = await fetch(`${emu.url}/assistant/${id}`, { headers: H });
      expect(got.status).toBe(200);
      expect(readFileSync(file, 'utf8')).not.toContain(id);
      // Room again: the writer's own retry writes everything, without another request.
      rmSync(filler);
      await until(() => (said.some((l) => l.includes('is written again')) ? true : undefined), 30_000);
      expect(readFileSync(file, 'utf8')).toContain(id);
      expect(said.filter((l) => l.includes('cannot write'))).toHaveLength(1);
    } finally {
      await emu.close();
    }
  }, 60_000);
});

describe('a web-call peer that misbehaves', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ speed: 5 });
  });
  afterAll(() => emu.close());

  it('sends garbage, then vanishes without a close frame: the call ends as a customer drop and the emulator serves on', async () => {
    const res = await fetch(`${emu.url}/call/web`, { method: 'POST', headers: H, body: JSON.stringify({ assistant: { firstMessage: 'Hi there, how can I help you today?' } }) });
    const call = (await res.json()) as { id: string; webCallUrl: string };
    const ws = new WebSocket(localSocketUrl(call.webCallUrl));
    const frames: string[] = [];
    ws.on('message', (raw) => frames.push(String(raw)));
    await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
    await until(() => (frames.length ? true : undefined));
    for (const junk of ['not json', '{"type":', '{"type":"no-such-frame"}', '[]', 'null', '{"type":"control","message":42}']) ws.send(junk);
    ws.send(Buffer.from([0xff, 0x00, 0xfe]));
    // The peer vanishes: the TCP connection drops with no WebSocket close frame.
    ws.terminate();
    const ended = await emu.waitForCall(call.id, 'ended', { timeoutMs: 30_000 });
    expect(ended.endedReason).toBe('customer-ended-call');
    expect((await fetch(`${emu.url}/assistant`, { headers: H })).status).toBe(200);
  }, 60_000);
});

describe('the clock jumping', () => {
  type Line = { role: string; time?: number; endTime?: number; secondsFromStart?: number };
  const timeline = (call: Record<string, unknown>): unknown[] => (call.messages as Line[]).map((m) => [m.role, m.secondsFromStart]);

  function expectMonotonic(call: Record<string, unknown>, deliveries: { request: { body: unknown } }[]): void {
    expect(Date.parse(call.startedAt as string)).toBeLessThanOrEqual(Date.parse(call.endedAt as string));
    const lines = call.messages as Line[];
    for (const [i, m] of lines.entries()) {
      if (m.endTime !== undefined) expect(m.endTime).toBeGreaterThanOrEqual(m.time as number);
      if (i) expect(m.time as number).toBeGreaterThanOrEqual(lines[i - 1]?.time as number);
    }
    const stamps = deliveries.map((d) => (d.request.body as { message: { timestamp: number } }).message.timestamp);
    expect(stamps.length).toBeGreaterThan(3);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]).toBeGreaterThanOrEqual(stamps[i - 1] as number);
  }

  it('--speed changed live, and the process stalling mid-call: the call ends as the platform ends it, on the same timeline, in order', async () => {
    // Slow enough that a wait scheduled at this speed would outlast every bound below.
    const emu = await startEmulator({ speed: 0.01 });
    const hook = await startHook(() => undefined);
    const place = async (): Promise<string> => {
      const res = await fetch(`${emu.url}/call`, { method: 'POST', headers: H, body: JSON.stringify({ customer: { number: '+14155550123' }, assistant: { name: 'C', server: { url: hook.url } } }) });
      return ((await res.json()) as { id: string }).id;
    };
    const speed = async (n: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
      const res = await fetch(`${emu.url}/__voice/speed`, { method: 'POST', headers: H, body: JSON.stringify({ speed: n }) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    try {
      const jumped = await place();
      // The call is waiting in `queued` for 0.5 simulated seconds (50 real ones at 0.01x): the change reaches that wait.
      expect(await speed(1000)).toEqual({ status: 200, body: { speed: 1000, was: 0.01, activeCalls: 1 } });
      await emu.waitForCall(jumped, 'in-progress', { timeoutMs: 30_000 });
      expect((await speed(200)).status).toBe(200);
      // The process stalls (suspended, or a long GC): every timer fires late.
      const stalled = Date.now() + 300;
      while (Date.now() < stalled);
      const a = await emu.waitForCall(jumped, 'ended', { timeoutMs: 30_000 });
      expect(a.endedReason).toBe('customer-ended-call');
      expect(((await (await fetch(`${emu.url}/__voice/info`)).json()) as { speed: number }).speed).toBe(200);
      // A call at one steady speed has the same timeline, second for second.
      const steady = await place();
      const b = await emu.waitForCall(steady, 'ended', { timeoutMs: 30_000 });
      expect(b.endedReason).toBe('customer-ended-call');
      expect(timeline(a)).toEqual(timeline(b));
      expect(Date.parse(a.endedAt as string) - Date.parse(a.startedAt as string)).toBe(Date.parse(b.endedAt as string) - Date.parse(b.startedAt as string));
      await until(() => (emu.deliveries(jumped).some((d) => d.type === 'end-of-call-report') ? true : undefined));
      expectMonotonic(a, emu.deliveries(jumped));
      // A speed that is no speed is refused, naming the field; the clock keeps its speed.
      for (const bad of [0, -1, 'fast', 20_000, null]) {
        const refused = await speed(bad);
        expect(refused.status).toBe(400);
        expect(String(refused.body.message)).toMatch(/speed must be a number above 0/);
      }
      expect(((await (await fetch(`${emu.url}/__voice/info`)).json()) as { speed: number }).speed).toBe(200);
    } finally {
      await emu.close();
      await hook.close();
    }
  }, 90_000);
});
