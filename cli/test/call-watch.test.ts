// `voice call watch` as a real process against an emulator running calls at --speed 20, with a
// loopback server standing in for the developer's tool server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devServer, messageOf } from './dev-server.js';
import type { DevServer } from './dev-server.js';
import { KEY, fileHarness } from './harness.js';

const h = fileHarness({ speed: 20 });
let tools: DevServer;
let assistantId: string;

async function api(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${h.current.emu.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  tools = await devServer((g) => {
    const m = messageOf(g);
    if (m.type !== 'tool-calls') return { body: {} };
    const c = (m.toolCallList as { id: string; function: { name: string; arguments: string } }[])[0];
    const day = (JSON.parse(c?.function.arguments ?? '{}') as { day?: string }).day;
    return { body: { results: [{ name: c?.function.name, toolCallId: c?.id, result: `Booked for ${day} at 10am.` }] } };
  });
  const tool = await api('/tool', {
    type: 'function',
    function: { name: 'bookAppointment', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday', 'tuesday'] } } } },
    server: { url: `${tools.url}/tools` },
  });
  const assistant = await api('/assistant', {
    name: 'Booker',
    firstMessage: 'Hello, Booker here.',
    model: { provider: 'openai', model: 'gpt-4o-mini', toolIds: [tool.id] },
    server: { url: `${tools.url}/hook` },
  });
  assistantId = assistant.id as string;
});
afterAll(() => tools.close());

const newCall = async (): Promise<string> => (await api('/call', { assistantId, customer: { number: '+14155550100' } })).id as string;

describe('voice call watch', () => {
  it('follows an emulated call live: the first message, the tool call and its result, then the end; exit 0', async () => {
    const id = await newCall();
    const r = await h.current.voice(['call', 'watch', id], { timeout: 60_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t').slice(1));
    expect(lines).toContainEqual(['status', 'in-progress']);
    const first = lines.findIndex((l) => l[0] === 'assistant');
    expect(lines[first]).toEqual(['assistant', 'Hello, Booker here.']);
    const tool = lines.findIndex((l) => l[0] === 'tool call');
    expect(lines[tool]?.[1]).toBe('bookAppointment({"day":"monday"})');
    expect(lines[tool + 1]).toEqual(['tool result', 'bookAppointment -> Booked for monday at 10am.']);
    expect(lines.some((l) => l[0] === 'customer')).toBe(true);
    const end = lines[lines.length - 1] as string[];
    expect(end[0]).toBe('ended');
    const call = await api(`/call/${id}`);
    expect(end[1]).toContain(String(call.endedReason));
    expect(end[1]).toMatch(/\$\d+\.\d+, \d+ s$/);
    expect(first).toBeLessThan(tool);
    expect(r.stderr).toContain(`Following call ${id}`);
  }, 90_000);

  it('--json prints one event per line; --poll follows by polling GET /call/{id} to the same end', async () => {
    const id = await newCall();
    const r = await h.current.voice(['call', 'watch', id, '--json'], { timeout: 60_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; [k: string]: unknown });
    expect(events.map((e) => e.event)).toContain('tool-call');
    expect(events.find((e) => e.event === 'transcript')).toMatchObject({ role: 'assistant', text: 'Hello, Booker here.' });
    const end = events.at(-1);
    expect(end).toMatchObject({ event: 'ended' });
    expect(typeof end?.cost).toBe('number');
    expect(typeof end?.durationSeconds).toBe('number');

    const polled = await newCall();
    const p = await h.current.voice(['call', 'watch', polled, '--poll', '--interval', '0.2'], { timeout: 60_000 });
    expect(p.exitCode, p.stderr).toBe(0);
    expect(p.stdout).toContain('\tassistant\tHello, Booker here.');
    expect(p.stdout).toContain('\ttool call\tbookAppointment(');
    expect(p.stdout.trim().split('\n').at(-1)).toMatch(/\tended\t/);
  }, 90_000);

  it('an ended call prints its story at once; an unknown id exits 1', async () => {
    const id = await newCall();
    await h.current.emu.calls.idle();
    const r = await h.current.voice(['call', 'watch', id]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('\tassistant\tHello, Booker here.');
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/\tended\t/);
    const missing = await h.current.voice(['call', 'watch', 'no-such-call']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('No call no-such-call');
  }, 60_000);
});
