// An eval turn the target answered with a tool call and no words: the AI judge is shown the call
// (its name and arguments), and the exact and regex judges' reasons name it, not an empty reply.
import { describe, expect, it } from 'vitest';
import type { Json } from '../messages/index.js';
import type { ModelGateway, StepInput, StepResult } from '../model/index.js';
import { runEval } from './eval-run.js';
import { judgeExact, judgeRegex } from './judge.js';
import type { World } from './types.js';

function worldWith(gateway: ModelGateway): World {
  const assistant: Json = { id: 'a1', name: 'Desk', model: { provider: 'openai', model: 'gpt-4o' } };
  return {
    gateway,
    assistant: () => assistant,
    squad: () => undefined,
    tools: () => [{ type: 'function', function: { name: 'bookSlot', parameters: { type: 'object', properties: { day: { type: 'string' } } } } }],
    structuredOutput: () => undefined,
    callTool: () => Promise.resolve({ result: 'booked' }),
    postHook: () => Promise.resolve({ url: '' }),
    now: () => 0,
  };
}

const ok = (text: string, toolCalls: { id: string; name: string; arguments: string }[] = []): StepResult => ({
  ok: true,
  text,
  toolCalls,
  firstTokenMs: 1,
  totalMs: 1,
  replayed: false,
  request: { url: '', body: {} },
});

describe('the AI judge of a tool-call turn', () => {
  it.each([
    ['the default judge prompt', { type: 'ai' }],
    [
      'a judge prompt with {{messages[-1]}}',
      { type: 'ai', model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'You are a judge. {{messages[-1]}} pass or fail?' }] } },
    ],
  ])('sees the tool call the assistant made (%s)', async (_name, judgePlan) => {
    const judged: string[] = [];
    const gateway: ModelGateway = {
      configured: () => true,
      describe: () => 'stub',
      step: (input: StepInput) => {
        if (input.assistant.name !== 'judge') return Promise.resolve(ok('', [{ id: 'call_1', name: 'bookSlot', arguments: '{"day":"Tuesday"}' }]));
        const prompt = ((input.assistant.model as Json).messages as Json[]).map((m) => String(m.content)).join('\n');
        judged.push(prompt);
        return Promise.resolve(ok(/bookSlot/.test(prompt) && /Tuesday/.test(prompt) ? 'pass' : 'fail'));
      },
    };
    const outcome = await runEval(
      worldWith(gateway),
      {
        type: 'chat.mockConversation',
        messages: [
          { role: 'user', content: 'Book me Tuesday.' },
          { role: 'assistant', judgePlan },
        ],
      },
      { type: 'assistant', assistantId: 'a1' },
      'eval',
    );
    expect(judged).toHaveLength(1);
    expect(judged[0]).toContain('bookSlot');
    expect(judged[0]).toContain('Tuesday');
    expect(outcome.judgements).toMatchObject([{ index: 1, judge: 'ai', passed: true }]);
  });
});

describe('the exact and regex judges of a tool-call turn', () => {
  const calls = [{ id: 'call_1', name: 'bookSlot', arguments: '{"day":"Tuesday"}' }];

  it('say what the assistant did instead of an empty reply when the words differ', () => {
    expect(judgeExact({ content: 'Booked.' }, '', calls)).toEqual({ passed: false, reason: 'expected exactly "Booked.", the assistant said nothing and called bookSlot({"day":"Tuesday"})' });
    expect(judgeRegex({ content: '/booked/i' }, '', calls)).toEqual({ passed: false, reason: '/booked/i does not match "" (the assistant said nothing and called bookSlot({"day":"Tuesday"}))' });
  });

  it('pass an empty reply when that is what they expect, and check the call', () => {
    expect(judgeExact({ content: '', toolCalls: [{ name: 'bookSlot', arguments: { day: 'tuesday' } }] }, '', calls)).toEqual({ passed: true });
    expect(judgeExact({ content: '', toolCalls: [{ name: 'bookSlot', arguments: { day: 'Friday' } }] }, '', calls)).toMatchObject({ passed: false, reason: expect.stringContaining('argument day') });
  });
});
