// Units of the webhook commands: URLs, closest names, masking, one-line summaries, no-op answers,
// the call-watch diff, polling back-off and the server-sent-events parser.
import { describe, expect, it } from 'vitest';
import { ApiError } from 'voice-agent-core/client';
import { answeredMessageTypes, sampleServerMessage, serverMessageTypes } from '#core/messages/index';
import { messagesOf, validateServerMessageResponse } from '#core/schemas/validate';
import { CliError } from '../errors.js';
import { closestFirst, suggestion } from '#core/schemas/closest';
import { formatLine } from './lines.js';
import { noopAnswer } from './noop.js';
import { scrub } from './scrub.js';
import { detailOf } from './summary.js';
import { judgeAnswer } from './types.js';
import { targetUrl } from './url.js';
import { diffCall, watchLine } from '../commands/call/watch-events.js';
import type { WatchEvent } from '../commands/call/watch-events.js';
import { pollCall } from '../commands/call/watch-poll.js';
import { endEvents, sseParser, streamEvents } from '../commands/call/watch-stream.js';
import { startReceiver } from './receiver.js';
import type { Received } from './receiver.js';
import { FINAL_TRANSCRIPTS } from '#core/messages/index';
import { startEmulator } from 'voice-agent-core/emulator';

describe('--forward-to URLs', () => {
  it('accepts full URLs, host:port/path and bare ports, keeping path and query', () => {
    expect(targetUrl('http://127.0.0.1:3000/hook?task=stripe&x=1')).toBe('http://127.0.0.1:3000/hook?task=stripe&x=1');
    expect(targetUrl('localhost:3000/webhook')).toBe('http://localhost:3000/webhook');
    expect(targetUrl('3000')).toBe('http://127.0.0.1:3000/');
    expect(targetUrl(':3000/x')).toBe('http://127.0.0.1:3000/x');
    expect(targetUrl('https://example.com/hook')).toBe('https://example.com/hook');
  });
  it('refuses other schemes, credentials in the URL and nonsense as usage errors', () => {
    for (const bad of ['ftp://x', 'http://u:p@host/', '', 'http://']) {
      const e = (() => {
        try {
          targetUrl(bad);
        } catch (error) {
          return error;
        }
      })();
      expect(e, bad).toBeInstanceOf(CliError);
      expect((e as CliError).exitCode).toBe(2);
    }
  });
});

describe('closest names', () => {
  it('ranks the intended type first for typos, prefixes and missing dashes', () => {
    expect(closestFirst('tool-call', serverMessageTypes)[0]).toBe('tool-calls');
    expect(closestFirst('statusupdate', serverMessageTypes)[0]).toBe('status-update');
    expect(closestFirst('end-of-call', serverMessageTypes)[0]).toBe('end-of-call-report');
    expect(closestFirst('assistant-req', serverMessageTypes)[0]).toBe('assistant-request');
    expect(closestFirst('x', serverMessageTypes)).toHaveLength(serverMessageTypes.length);
  });

  it('suggests a name only when it is close (contained, or within a third of the length in edits)', () => {
    expect(suggestion('tool-call', serverMessageTypes)).toBe('tool-calls');
    expect(suggestion('statusupdate', serverMessageTypes)).toBe('status-update');
    expect(suggestion('end-of-call', serverMessageTypes)).toBe('end-of-call-report');
    expect(suggestion('hnag', serverMessageTypes)).toBe('hang');
    expect(suggestion('hxyz', serverMessageTypes)).toBeUndefined();
    expect(suggestion('hng', serverMessageTypes)).toBe('hang');
    for (const far of ['foo', 'nonsense', 'x', '']) expect(suggestion(far, serverMessageTypes), far).toBeUndefined();
    expect(suggestion('abc', [])).toBeUndefined();
  });
});

describe('scrub', () => {
  it('masks secret-looking fields and every header value, and keeps the rest', () => {
    const out = scrub({ server: { url: 'u', headers: { 'x-custom': 'abc', Authorization: 'Bearer zzz' } }, secret: 's', apiKey: 'k', maxTokens: 5, credentialId: 'c', list: [{ token: 't' }] });
    expect(out).toEqual({ server: { url: 'u', headers: { 'x-custom': '****', Authorization: '****' } }, secret: '****', apiKey: '****', maxTokens: 5, credentialId: 'c', list: [{ token: '****' }] });
  });
});

describe('one-line details', () => {
  it('names what matters for the common types', () => {
    expect(detailOf(sampleServerMessage('status-update'))).toBe('in-progress');
    expect(detailOf(sampleServerMessage('tool-calls'))).toBe('bookAppointment({"day":"monday"})');
    expect(detailOf(sampleServerMessage('transcript', { role: 'user', transcript: 'Hi there', transcriptType: 'final' }))).toBe('customer: Hi there');
    expect(detailOf(sampleServerMessage('end-of-call-report', { endedReason: 'customer-ended-call', cost: 0.12, startedAt: '2026-01-01T00:00:00Z', endedAt: '2026-01-01T00:00:41Z' }))).toBe(
      'customer-ended-call, $0.12, 41 s',
    );
    expect(detailOf(sampleServerMessage('assistant-request'))).toMatch(/^inbound from \+1/);
    const toolTurn = { role: 'tool_calls', message: '', toolCalls: [{ id: 't1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }], time: 1, secondsFromStart: 1 };
    expect(detailOf({ type: 'conversation-update', messages: [{ role: 'bot', message: 'Hi' }, toolTurn] })).toBe('2 messages, last tool call lookup({"q":"x"})');
    expect(detailOf({ type: 'conversation-update', messages: [{ role: 'user', message: 'Hello there' }] })).toBe('1 messages, last customer: Hello there');
    for (const type of serverMessageTypes) expect(typeof detailOf(sampleServerMessage(type))).toBe('string');
  });
});

describe('no-op answers and judging', () => {
  it('gives every type that expects an answer a no-op that fits its published response schema', async () => {
    for (const type of answeredMessageTypes) {
      // A voice-request is answered with audio, which a no-op cannot make (the test below).
      if (type === 'voice-request') continue;
      const { status, body } = noopAnswer(sampleServerMessage(type));
      expect(status, type).toBe(200);
      expect(messagesOf(await validateServerMessageResponse(type, body)), type).toEqual([]);
      expect(await judgeAnswer(sampleServerMessage(type), body), type).toEqual({ problems: [], notes: [] });
    }
    expect(noopAnswer(sampleServerMessage('status-update'))).toEqual({ status: 200, body: {} });
  });
  it("answers a voice-request 501, saying there is no voice: a voice dev call speaking through it fails as the platform's would, the reason in its log", async () => {
    const seen: Received[] = [];
    const r = await startReceiver({ port: 0, host: '127.0.0.1', timeoutMs: 1000, noop: noopAnswer, onReceived: (x) => seen.push(x) });
    const emu = await startEmulator({ port: 0, audio: true, speed: 1000, scenario: { turns: [{ say: 'Hi.' }] } });
    try {
      const res = await fetch(r.url, { method: 'POST', body: JSON.stringify({ message: sampleServerMessage('voice-request') }) });
      expect(res.status).toBe(501);
      expect(((await res.json()) as { error: string }).error).toContain('no voice here');
      expect(seen[0]?.reply).toMatchObject({ status: 501, noop: true });
      const assistant = await emu.client.assistant.create({ firstMessage: 'Hello.', voice: { provider: 'custom-voice', server: { url: r.url } } });
      const call = await emu.client.call.create({ assistantId: assistant.id, customer: { number: '+14155550100' } });
      await emu.calls.idle();
      expect((await emu.client.call.get(call.id)).endedReason).toBe('pipeline-error-custom-voice-failed');
      const logs = await (await fetch(`${emu.url}/call/${call.id}/call-logs`, { headers: { authorization: 'Bearer k' } })).text();
      expect(logs).toContain('HTTP 501');
      expect(logs).toContain('no voice here');
    } finally {
      await Promise.all([r.close(), emu.close()]);
    }
  }, 60_000);
  it('judges tool-calls answers by schema and by tool call ids; types without answers are not judged', async () => {
    const m = sampleServerMessage('tool-calls');
    expect(await judgeAnswer(m, { results: [{ name: 'bookAppointment', toolCallId: 'call_sample_1', result: 'ok' }] })).toEqual({ problems: [], notes: [] });
    expect(await judgeAnswer(m, { messageResponse: { results: [{ name: 'bookAppointment', toolCallId: 'call_sample_1', result: 'ok' }] } })).toEqual({ problems: [], notes: [] });
    const wrong = (await judgeAnswer(m, { results: [{ name: 'bookAppointment', toolCallId: 'other', result: 7 }] }))?.problems;
    expect(wrong).toContain('results.0.result must be a string');
    expect(wrong).toContain('results: no result for tool call call_sample_1 (bookAppointment)');
    expect(wrong).toContain('results.0.toolCallId: "other" is not a tool call of this message');
    expect((await judgeAnswer(m, [1]))?.problems).toEqual(['the answer must be a JSON object, not an array']);
    expect(await judgeAnswer(sampleServerMessage('hang'), 'anything')).toBeUndefined();
    expect((await judgeAnswer(sampleServerMessage('assistant-request'), { results: [] }))?.problems).toEqual([
      expect.stringMatching(/^names none of assistantId, assistant, .*: the call has nothing to run$/),
    ]);
    expect((await judgeAnswer(sampleServerMessage('assistant-request'), { assistantId: 'a1' }))?.problems).toEqual([]);
  });
});

describe('terminal lines', () => {
  it('aligns columns with the clock on a terminal, colour only when allowed', () => {
    const line = watchLine({ kind: 'say', at: new Date(2026, 0, 1, 9, 5, 7), role: 'assistant', text: 'Hello' });
    expect(formatLine(line, { mode: 'ink', color: false })).toBe('09:05:07  assistant     Hello');
    expect(formatLine(watchLine({ kind: 'status', at: new Date(2026, 0, 1, 9, 5, 7), status: 'ended' }), { mode: 'ink', color: true })).toContain('\x1b[2m');
    expect(formatLine(line, { mode: 'plain', color: true })).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\tassistant\tHello$/);
  });
});

const call = (extra: Record<string, unknown>): Record<string, unknown> => ({ id: 'c1', ...extra });
const turn = (role: string, message: string, time: number): Record<string, unknown> => ({ role, message, time, endTime: time + 1, secondsFromStart: 1 });

describe('call watch', () => {
  it('diffs polls into status changes, new turns and the end, each once', () => {
    const seen = { turns: 0 } as { status?: string; turns: number };
    const kinds = (events: WatchEvent[]): string[] => events.map((e) => (e.kind === 'say' ? `${e.role}: ${e.text}` : e.kind === 'status' ? `status ${e.status}` : e.kind));
    expect(kinds(diffCall(seen, call({ status: 'queued' })))).toEqual(['status queued']);
    expect(kinds(diffCall(seen, call({ status: 'queued' })))).toEqual([]);
    expect(kinds(diffCall(seen, call({ status: 'in-progress', messages: [turn('bot', 'Hello', 1)] })))).toEqual(['status in-progress', 'assistant: Hello']);
    const toolTurns = [
      turn('bot', 'Hello', 1),
      { role: 'tool_calls', message: '', toolCalls: [{ id: 't1', type: 'function', function: { name: 'book', arguments: '{"day":"monday"}' } }], time: 2, secondsFromStart: 2 },
      { role: 'tool_call_result', toolCallId: 't1', name: 'book', result: 'Booked', time: 3, secondsFromStart: 3 },
      turn('user', 'Thanks', 4),
    ];
    expect(kinds(diffCall(seen, call({ status: 'in-progress', messages: toolTurns })))).toEqual(['tool-call', 'tool-result', 'customer: Thanks']);
    const end = diffCall(seen, call({ status: 'ended', endedReason: 'customer-ended-call', cost: 0.05, startedAt: '2026-01-01T00:00:00Z', endedAt: '2026-01-01T00:00:30Z', messages: toolTurns }));
    expect(end).toHaveLength(1);
    expect(end[0]).toMatchObject({ kind: 'ended', endedReason: 'customer-ended-call', cost: 0.05, durationSeconds: 30, text: 'customer-ended-call, $0.05, 30 s' });
  });

  it('polls faster while things change, backs off while they do not, and gives up after repeated failures', async () => {
    const waits: number[] = [];
    const states = [call({ status: 'queued' }), call({ status: 'queued' }), call({ status: 'queued' }), call({ status: 'in-progress' }), call({ status: 'ended', endedReason: 'x' })];
    const events: WatchEvent[] = [];
    await pollCall('c1', async () => states.shift() as Record<string, unknown>, {
      intervalMs: 100,
      maxIntervalMs: 200,
      maxFailures: 3,
      onEvent: (e) => events.push(e),
      onRetry: () => undefined,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(waits).toEqual([100, 150, 200, 100]);
    expect(events.map((e) => e.kind)).toEqual(['status', 'status', 'ended']);

    let tries = 0;
    const retries: string[] = [];
    const failing = pollCall(
      'c1',
      async () => {
        tries++;
        throw new Error('socket hang up');
      },
      { intervalMs: 10, maxIntervalMs: 20, maxFailures: 3, onEvent: () => undefined, onRetry: (m) => retries.push(m), sleep: async () => undefined },
    );
    await expect(failing).rejects.toThrow(/Cannot follow call c1: socket hang up/);
    expect(tries).toBe(3);
    expect(retries).toHaveLength(2);

    const missing = pollCall(
      'nope',
      async () => {
        throw new ApiError({ status: 404, body: { message: 'Not found' } } as never);
      },
      { intervalMs: 10, maxIntervalMs: 20, maxFailures: 3, onEvent: () => undefined, onRetry: () => undefined, sleep: async () => undefined },
    );
    await expect(missing).rejects.toBeInstanceOf(CliError);
  });

  it('parses server-sent events split anywhere, and turns stream events into watch events', () => {
    const got: [string, string][] = [];
    const feed = sseParser((name, data) => got.push([name, data]));
    const text =
      'retry: 1000\n\nid: 1\nevent: call.status\ndata: {"kind":"call.status","status":"ringing"}\n\n: ping\n\nid: 2\nevent: call.transcript\ndata: {"kind":"call.transcript","role":"user","text":"Hi"}\r\n\r\n';
    for (let i = 0; i < text.length; i += 7) feed(text.slice(i, i + 7));
    expect(got).toEqual([
      ['call.status', '{"kind":"call.status","status":"ringing"}'],
      ['call.transcript', '{"kind":"call.transcript","role":"user","text":"Hi"}'],
    ]);
    const seen = { tools: new Set<string>(), results: new Set<string>() };
    const delivery = {
      kind: 'delivery',
      at: '2026-01-01T00:00:00Z',
      delivery: { status: 200, request: { body: { message: sampleServerMessage('tool-calls') } }, answer: { results: [{ toolCallId: 'call_sample_1', result: 'Booked' }] } },
    };
    expect(streamEvents(delivery, seen).map((e) => (e.kind === 'tool-call' ? e.call : e.kind === 'tool-result' ? `${e.name} -> ${e.result}` : e.kind))).toEqual([
      'bookAppointment({"day":"monday"})',
      'bookAppointment -> Booked',
    ]);
    expect(streamEvents({ kind: 'call.status', status: 'ended' }, seen)).toEqual([]);
    // The ended call adds only tool calls never seen live, then the end.
    const ended = endEvents(
      {
        status: 'ended',
        endedReason: 'hangup',
        messages: [
          { role: 'tool_calls', toolCalls: [{ id: 'call_sample_1', function: { name: 'bookAppointment', arguments: '{}' } }], time: 1, secondsFromStart: 1 },
          { role: 'tool_calls', toolCalls: [{ id: 't9', function: { name: 'lookup', arguments: '{}' } }], time: 2, secondsFromStart: 2.5 },
        ],
      },
      seen,
    );
    expect(ended.map((e) => e.kind)).toEqual(['tool-call', 'ended']);
    expect((ended[0] as { call: string }).call).toContain('lookup({})  (at 2.5 s into the call');
  });
});

describe('the receiver', () => {
  it('filters by type, taking the final-transcripts subscription name, and answers filtered messages with the no-op', async () => {
    const seen: Received[] = [];
    const r = await startReceiver({ port: 0, host: '127.0.0.1', events: new Set([FINAL_TRANSCRIPTS, 'hang']), timeoutMs: 1000, noop: noopAnswer, onReceived: (x) => seen.push(x) });
    try {
      const send = (message: unknown): Promise<Response> => fetch(r.url, { method: 'POST', body: JSON.stringify({ message }) });
      expect((await send(sampleServerMessage('transcript', { transcriptType: 'partial' }))).status).toBe(200);
      await send(sampleServerMessage('transcript', { transcriptType: 'final' }));
      await send(sampleServerMessage('hang'));
      expect(await (await send(sampleServerMessage('tool-calls'))).json()).toEqual({ results: [{ name: 'bookAppointment', toolCallId: 'call_sample_1', result: '' }] });
      expect(seen.map((x) => `${x.type}${x.filtered ? ' (filtered)' : ''}`)).toEqual(['transcript (filtered)', 'transcript', 'hang', 'tool-calls (filtered)']);
      expect(r.count()).toBe(4);
      expect((await fetch(r.url, { method: 'PUT' })).status).toBe(405);
      expect(await (await fetch(r.url)).text()).toContain('voice listen is running');
    } finally {
      await r.close();
    }
  });
});
