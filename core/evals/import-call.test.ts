// The eval a recorded call becomes: the greeting replayed, tool calls judged by exact argument
// patterns (names only when loose), spoken turns by an AI judge told the recorded answer, each
// judged turn continued as recorded, the recorded latencies kept by turn, readable YAML.
import { describe, expect, it } from 'vitest';
import { recordedCallOf } from './call-record.js';
import type { RecordedCall } from './call-record.js';
import { evalFromCall, exactPattern } from './import-call.js';
import { importedYaml } from './import-yaml.js';

const call = recordedCallOf({
  id: 'abcdef12-0000-4000-8000-000000000000',
  startedAt: '2025-03-04T10:15:00.000Z',
  assistant: { name: 'Receptionist', model: { provider: 'openai', model: 'gpt-4o' } },
  artifact: {
    messages: [
      { role: 'system', message: 'You book appointments.' },
      { role: 'bot', message: 'Riverside Clinic, how can I help?' },
      { role: 'user', message: 'Tuesday please.' },
      { role: 'tool_calls', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'book', arguments: '{"day":"Thursday","slot":{"h":10}}' } }] },
      { role: 'tool_call_result', toolCallId: 'c1', name: 'book', result: 'Thursday 10:00' },
      { role: 'bot', message: 'Booked for Thursday.' },
    ],
    performanceMetrics: { turnLatencies: [{ modelLatency: 640, voiceLatency: 250, transcriberLatency: 150, endpointingLatency: 300, turnLatency: 1340 }] },
  },
}) as RecordedCall;

describe('evalFromCall', () => {
  it('replays the greeting, judges the tool call by exact arguments and the answer by the AI judge, continuing as recorded', () => {
    const { data, turns } = evalFromCall(call, { from: 'file call.json', importedAt: new Date('2025-03-05T00:00:00Z') });
    expect(turns.map((t) => [t.turn, t.judged])).toEqual([
      [1, 'greeting'],
      [2, 'tools'],
      [3, 'speech'],
    ]);
    const messages = data.messages as Record<string, unknown>[];
    expect(messages[0]).toEqual({ role: 'assistant', content: 'Riverside Clinic, how can I help?' });
    expect(messages[2]).toMatchObject({
      judgePlan: { type: 'regex', content: '.*', toolCalls: [{ name: 'book', arguments: { day: '^Thursday$', slot: exactPattern({ h: 10 }) } }] },
      continuePlan: { contentOverride: '', toolCallsOverride: [{ name: 'book', arguments: { day: 'Thursday', slot: { h: 10 } } }] },
    });
    expect(messages[3]).toEqual({ role: 'tool', content: 'Thursday 10:00' });
    expect(JSON.stringify(messages[4])).toContain('it said \\"Booked for Thursday.\\"');
    expect(data['x-voice']).toMatchObject({ source: { callId: call.id, from: 'file call.json' }, turns: [{ turn: 2, recorded: { firstTokenMs: 640, turnMs: 1340 } }] });
    expect(new RegExp(exactPattern('a.b (c)')).test('a.b (c)')).toBe(true);
    expect(new RegExp(exactPattern('a.b (c)')).test('axb (c)')).toBe(false);
  });

  it('judges names only when loose, and writes YAML with a comment above each turn', () => {
    const imported = evalFromCall(call, { loose: true, from: 'file call.json', importedAt: new Date(0) });
    expect((imported.data.messages as Record<string, Record<string, unknown>>[])[2]?.judgePlan?.toolCalls).toEqual([{ name: 'book' }]);
    const yaml = importedYaml(imported, 'voice test import call.json');
    expect(yaml).toContain('# Imported by `voice test import call.json` from call abcdef12-0000-4000-8000-000000000000');
    expect(yaml).toContain('# turn 2: recorded, the assistant called book({"day":"Thursday","slot":{"h":10}})');
    expect(yaml).toContain('# turn 1: recorded, the assistant said "Riverside Clinic, how can I help?"');
  });
});
