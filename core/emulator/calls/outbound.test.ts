// An outbound call end to end against a loopback server standing in for the developer's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { messageProblems } from '../../messages/testing.js';
import { startHook } from './testing.js';
import type { Hook } from './testing.js';

let emu: Emulator;
let app: Hook;
let toolApp: Hook;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk deep JSON
type Loose = Record<string, any>;
const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}
async function get(path: string): Promise<unknown> {
  return (await fetch(`${emu.url}${path}`, { headers })).json();
}

beforeAll(async () => {
  emu = await startEmulator({ speed: 500 });
  app = await startHook();
  toolApp = await startHook((r) => {
    if (r.message.type !== 'tool-calls') return undefined;
    const call = (r.message.toolCallList as { id: string; function: { arguments: string } }[])[0];
    const day = (JSON.parse(call?.function.arguments ?? '{}') as { day?: string }).day;
    return { json: { results: [{ toolCallId: call?.id, result: `Booked for ${day} at 10am.` }] } };
  });
});
afterAll(async () => {
  await emu.close();
  await app.close();
  await toolApp.close();
});

describe('an outbound call with a function tool', () => {
  it('runs to the end: statuses in order, the tool answered, the report, headers and precedence', async () => {
    const tool = await post('/tool', {
      type: 'function',
      function: { name: 'bookAppointment', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday', 'tuesday'] } } } },
      server: { url: `${toolApp.url}/tools`, headers: { 'x-tool-secret': 't1' } },
    });
    const assistant = await post('/assistant', {
      name: 'Booker',
      firstMessage: 'Hello, Booker here.',
      model: { provider: 'openai', model: 'gpt-4o-mini', toolIds: [tool.id] },
      server: { url: `${app.url}/hook`, headers: { 'x-app-secret': 's3cret' } },
    });
    const call = await post('/call', { assistantId: assistant.id, customer: { number: '+14155550100' } });
    expect(call.status).toBe('queued');
    await emu.calls.idle();

    const types = app.types(call.id as string);
    const statuses = app.received.filter((r) => r.message.type === 'status-update').map((r) => r.message.status);
    expect(statuses).toEqual(['queued', 'ringing', 'in-progress', 'ended']);
    expect(types).toContain('assistant.started');
    expect(types).toContain('speech-update');
    expect(types).toContain('conversation-update');
    expect(types).toContain('user-interrupted');
    expect(types).not.toContain('transcript'); // not in the default serverMessages
    expect(types.at(-1)).toBe('end-of-call-report');
    expect(app.received.every((r) => r.headers['x-app-secret'] === 's3cret' && r.path === '/hook')).toBe(true);

    // tool-calls went to the tool's own server (precedence), with its headers, and nowhere else.
    expect(types).not.toContain('tool-calls');
    expect(toolApp.received).toHaveLength(1);
    expect(toolApp.received[0]?.headers['x-tool-secret']).toBe('t1');
    expect(toolApp.received[0]?.message.toolCallList).toEqual([expect.objectContaining({ type: 'function', function: { name: 'bookAppointment', arguments: '{"day":"monday"}' } })]);

    const report = app.received.find((r) => r.message.type === 'end-of-call-report')?.message as Loose;
    expect(report.endedReason).toBe('customer-ended-call');
    expect(report.artifact.transcript).toContain('AI: Booked for monday at 10am.');
    expect(report.artifact.messages.map((m: { role: string }) => m.role)).toEqual(expect.arrayContaining(['bot', 'user', 'tool_calls', 'tool_call_result']));
    expect(report.analysis.summary).toMatch(/bookAppointment/);

    const ended = (await get(`/call/${call.id}`)) as Loose;
    expect(ended).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    const seconds = (Date.parse(ended.endedAt) - Date.parse(ended.startedAt)) / 1000;
    expect(seconds).toBeGreaterThan(5); // simulated seconds, though the test took far less
    expect(ended.cost).toBeGreaterThan(0);
    expect(ended.costBreakdown.total).toBe(ended.cost);
    expect(ended.artifact.messagesOpenAIFormatted.some((m: { role: string }) => m.role === 'tool')).toBe(true);
    expect(ended.messages.find((m: { role: string }) => m.role === 'tool_call_result').result).toBe('Booked for monday at 10am.');

    const wav = await fetch(ended.artifact.recordingUrl);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await wav.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString()).toBe('WAVE');
    // The recording URL and the API's mono recording are one conversation's audio.
    const mono = await fetch(`${emu.url}/call/${call.id}/mono-recording`, { headers });
    expect(mono.status).toBe(200);
    expect(Buffer.from(await mono.arrayBuffer()).equals(bytes)).toBe(true);

    const logs = (await get(`/log?callId=${call.id}`)) as { results: { log: string }[] };
    expect(logs.results.map((l) => l.log)).toEqual(expect.arrayContaining(['Call status: in-progress', 'Call ended: customer-ended-call']));

    const deliveries = (await get(`/__voice/deliveries?callId=${call.id}`)) as { type: string; url: string; status: number }[];
    expect(deliveries.length).toBe(app.received.filter((r) => (r.message.call as { id: string }).id === call.id).length + 1);
    expect(deliveries.find((d) => d.type === 'tool-calls')).toMatchObject({ url: `${toolApp.url}/tools`, status: 200 });

    expect(await messageProblems([...app.received, ...toolApp.received].map((r) => r.message))).toEqual([]);
  }, 30_000);

  it("falls back to the phone number's server, then the org's", async () => {
    const numberApp = await startHook();
    const orgApp = await startHook();
    try {
      const pn = await post('/phone-number', { provider: 'vapi', name: 'Line', server: { url: `${numberApp.url}/pn`, headers: { 'x-number': '1' } } });
      const viaNumber = await post('/call', { assistant: { name: 'NoServer' }, phoneNumberId: pn.id, customer: { number: '+14155550133' } });
      const orgs = (await get('/org')) as { id: string }[];
      const org = orgs[0] as { id: string };
      const patched = await fetch(`${emu.url}/org/${org.id}`, { method: 'PATCH', headers, body: JSON.stringify({ server: { url: `${orgApp.url}/org` } }) });
      expect(patched.status).toBe(200);
      const viaOrg = await post('/call', { assistant: { name: 'NoServer' }, customer: { number: '+14155550134' } });
      await emu.calls.idle();
      expect(numberApp.types(viaNumber.id as string).at(-1)).toBe('end-of-call-report');
      expect(numberApp.received.every((r) => r.path === '/pn' && r.headers['x-number'] === '1')).toBe(true);
      expect(orgApp.types(viaOrg.id as string).at(-1)).toBe('end-of-call-report');
      expect(orgApp.types(viaNumber.id as string)).toEqual([]);
      expect(await messageProblems([...numberApp.received, ...orgApp.received].map((r) => r.message))).toEqual([]);
    } finally {
      await numberApp.close();
      await orgApp.close();
    }
  }, 30_000);
});
