// Tool servers that fail, endCall tools, maxDurationSeconds, workflows in outline, arguments
// from parameter schemas, firstMessageMode, and the live event stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator, RecordEvent } from '../index.js';
import { argumentsFor } from './arguments.js';
import { startHook } from './testing.js';
import type { Hook } from './testing.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
let emu: Emulator;
let app: Hook;
let broken: Hook;

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}
async function run(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const call = await post('/call', { customer: { number: '+14155550177' }, ...body });
  await emu.calls.idle();
  return (await (await fetch(`${emu.url}/call/${String(call.id)}`, { headers })).json()) as Record<string, unknown>;
}
const fn = (name: string, server: string) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } }, server: { url: server, timeoutSeconds: 1 } });

beforeAll(async () => {
  emu = await startEmulator({ speed: 2000 });
  app = await startHook();
  broken = await startHook((r) => {
    if (r.path === '/500') return { status: 500, json: { message: 'boom' } };
    if (r.path === '/garbage') return { text: 'not json' };
    // Far past the tool's 1 s timeout: a busy machine fires that timer late, never 4 s late.
    if (r.path === '/slow') return { delayMs: 5000, json: { results: [] } };
    return undefined;
  });
});
afterAll(async () => {
  await emu.close();
  await app.close();
  await broken.close();
});

describe('tool calls that fail', () => {
  it('records a failing, garbled or late tool server and the call goes on', async () => {
    const call = await run({
      // The late server costs 1 s of real time (its timeout): 2000 simulated seconds at this speed if the clock
      // did not stand still while waiting, which would run past the 600 s default limit.
      assistant: {
        name: 'T',
        server: { url: app.url },
        model: { provider: 'openai', model: 'gpt-4o-mini', tools: [fn('fails', `${broken.url}/500`), fn('garbles', `${broken.url}/garbage`), fn('lags', `${broken.url}/slow`)] },
      },
    });
    expect(call.endedReason).toBe('customer-ended-call');
    const results = (call.messages as { role: string; name?: string; result?: string }[]).filter((m) => m.role === 'tool_call_result');
    expect(results.map((r) => [r.name, r.result])).toEqual([
      ['fails', 'No result returned.'],
      ['garbles', 'No result returned.'],
      ['lags', 'No result returned.'],
    ]);
    const deliveries = (await (await fetch(`${emu.url}/__voice/deliveries?callId=${String(call.id)}`)).json()) as { type: string; url: string; status?: number; error?: string }[];
    const tools = deliveries.filter((d) => d.type === 'tool-calls');
    expect(tools.map((d) => d.error)).toEqual(['HTTP 500', 'malformed JSON in the answer', 'no answer within 1 s']);
    expect(tools[0]?.status).toBe(500);
    const logs = (await (await fetch(`${emu.url}/log?callId=${String(call.id)}`, { headers })).json()) as { results: { log: string; level: string }[] };
    expect(logs.results.filter((l) => l.level === 'WARN').map((l) => l.log)).toEqual(expect.arrayContaining(['Tool fails failed: HTTP 500']));
  }, 15_000);
});

describe('endings', () => {
  it('an endCall tool ends the call as the assistant', async () => {
    const call = await run({ assistant: { name: 'E', endCallMessage: 'Goodbye now.', model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'endCall' }] } } });
    expect(call.endedReason).toBe('assistant-ended-call');
    expect((call.artifact as { transcript: string }).transcript.split('\n').at(-1)).toBe('AI: Goodbye now.');
  });

  it('maxDurationSeconds cuts a call short', async () => {
    const call = await run({ assistant: { name: 'Short', firstMessage: 'This greeting is long enough to outlast the limit of the call, surely.', maxDurationSeconds: 10 } });
    expect(call.endedReason).toBe('exceeded-max-duration');
    const seconds = (Date.parse(String(call.endedAt)) - Date.parse(String(call.startedAt))) / 1000;
    expect(seconds).toBe(10);
  });

  it('assistant-waits-for-user lets the customer speak first; the model-generated mode greets', async () => {
    const waits = await run({ assistant: { name: 'W', firstMessage: 'Never said.', firstMessageMode: 'assistant-waits-for-user' } });
    expect((waits.artifact as { transcript: string }).transcript).toMatch(/^User: /);
    const gen = await run({ assistant: { name: 'G', firstMessage: 'Not this.', firstMessageMode: 'assistant-speaks-first-with-model-generated-message' } });
    expect((gen.artifact as { transcript: string }).transcript).toMatch(/^AI: Hello! How can I help you today\?/);
  });
});

describe('workflows in outline', () => {
  it('runs the nodes in edge order from the start node, then ends', async () => {
    const wf = await post('/workflow', {
      name: 'Intake',
      nodes: [
        { type: 'conversation', name: 'bye', prompt: 'Say goodbye. Then stop.' },
        { type: 'conversation', name: 'greet', isStart: true, prompt: 'Welcome to the clinic. Ask for a name.' },
      ],
      edges: [{ from: 'greet', to: 'bye' }],
    });
    const call = await run({ workflowId: wf.id });
    expect(call.endedReason).toBe('assistant-ended-call');
    expect((call.artifact as { transcript: string }).transcript.split('\n')).toEqual([
      'AI: Welcome to the clinic.',
      "User: Hi, I'm calling to check on my appointment.",
      'AI: Say goodbye.',
      "User: Great, thank you. That's all I needed.",
    ]);
  });
});

describe('arguments from parameter schemas', () => {
  it('takes default, example, first enum value, else a placeholder of the type', () => {
    expect(
      argumentsFor({
        type: 'object',
        properties: {
          a: { type: 'string', default: 'd' },
          b: { type: 'string', example: 'e' },
          c: { type: 'string', enum: ['x', 'y'] },
          d: { type: 'integer' },
          e: { type: 'boolean' },
          f: { type: 'array', items: { type: 'string' } },
          g: { type: 'object', properties: { h: { type: 'number', minimum: 5 } } },
          i: { type: 'string', format: 'date' },
        },
      }),
    ).toEqual({ a: 'd', b: 'e', c: 'x', d: 1, e: true, f: ['sample f'], g: { h: 5 }, i: '2026-01-01' });
  });
});

/** Reads server-sent events from the emulator until `done` says so. */
/** Reads the stream until `done`; `opened` runs once the emulator answers, when it already follows the record for this reader. */
async function readEvents(url: string, done: (events: RecordEvent[]) => boolean, opened?: () => void): Promise<RecordEvent[]> {
  const ctl = new AbortController();
  const res = await fetch(url, { signal: ctl.signal });
  opened?.();
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: RecordEvent[] = [];
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = buf.indexOf('\n\n')) >= 0) {
      const data = buf
        .slice(0, at)
        .split('\n')
        .find((l) => l.startsWith('data: '));
      buf = buf.slice(at + 2);
      if (data) events.push(JSON.parse(data.slice(6)) as RecordEvent);
    }
    if (done(events)) break;
  }
  ctl.abort();
  return events;
}

const endedSeen = (events: RecordEvent[]): boolean => events.some((e) => e.kind === 'call.status' && e.status === 'ended');

describe('the live stream', () => {
  it('GET /__voice/events streams statuses, transcript, deliveries and requests; since=0 replays a call', async () => {
    let opened!: () => void;
    const open = new Promise<void>((r) => (opened = r));
    const live = readEvents(`${emu.url}/__voice/events`, endedSeen, opened);
    await open;
    const call = await run({ assistant: { name: 'L', firstMessage: 'Live!', server: { url: app.url } } });
    const events = await live;
    const mine = events.filter((e) => 'callId' in e && e.callId === call.id);
    expect(mine.filter((e) => e.kind === 'call.status').map((e) => (e as { status: string }).status)).toEqual(['queued', 'ringing', 'in-progress', 'ended']);
    expect(mine.find((e) => e.kind === 'call.transcript')).toMatchObject({ role: 'assistant', text: 'Live!' });
    expect(mine.some((e) => e.kind === 'delivery' && e.delivery.type === 'status-update' && e.delivery.status === 200)).toBe(true);
    expect(events.some((e) => e.kind === 'request' && e.method === 'POST' && e.path === '/call')).toBe(true);

    // After the call: a stream for that call with since=0 replays it from the record, and nothing else.
    const replay = await readEvents(`${emu.url}/__voice/events?callId=${String(call.id)}&since=0`, (es) => es.some((e) => e.kind === 'delivery' && e.delivery.type === 'end-of-call-report'));
    expect(replay.every((e) => 'callId' in e && e.callId === call.id)).toBe(true);
    expect(replay.map((e) => e.seq)).toEqual(emu.record.list({ callId: String(call.id) }).map((e) => e.seq));
    expect(await messageProblems(app.received.map((r) => r.message))).toEqual([]);
  }, 15_000);
});
