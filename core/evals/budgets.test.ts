// Latency budgets: judged on the model's time to first token of live runs, with the turn and the
// figures; never judged silently on a cassette replay, on a platform without timings, or for the
// whole turn (no audio loop); and the x-voice block's mistakes found with file:line.
import { describe, expect, it } from 'vitest';
import { parseResource } from '../gitops/files.js';
import { kindNamed } from '../gitops/kinds.js';
import type { Kind } from '../gitops/kinds.js';
import { judgeLatency } from './budgets.js';
import { lintExtension } from './extension.js';

const evalData = {
  messages: [
    { role: 'assistant', content: 'Hello' },
    { role: 'user', content: 'Book Tuesday' },
    { role: 'assistant', judgePlan: { type: 'regex', content: '.*' } },
    { role: 'tool', content: 'ok' },
    { role: 'assistant', judgePlan: { type: 'ai' } },
  ],
};
const live = [
  { message: 3, firstTokenMs: 420, replayed: false },
  { message: 5, firstTokenMs: 1900, replayed: false },
];

describe('judgeLatency', () => {
  it('fails a turn over its budget with the figures; a turn budget overrides the test budget', () => {
    const report = judgeLatency(evalData, { budget: { firstTokenMs: 1000 }, turns: [{ turn: 2, budget: { firstTokenMs: 300 } }] }, live, 'auto');
    expect(report?.judged).toBe(true);
    expect(report?.failures).toEqual([
      "turn 2: the model's first token came after 420 ms, over its budget of 300 ms",
      "turn 3: the model's first token came after 1900 ms, over its budget of 1000 ms",
    ]);
    expect(judgeLatency(evalData, { budget: { firstTokenMs: 5000 } }, live, 'auto')).toMatchObject({ judged: true, failures: [] });
  });

  it('says why a budget was not judged: a cassette replay (unless on), no timings, off, the whole turn', () => {
    const replayed = live.map((t) => ({ ...t, replayed: true }));
    const auto = judgeLatency(evalData, { budget: { firstTokenMs: 100 } }, replayed, 'auto');
    expect(auto).toMatchObject({ judged: false, failures: [] });
    expect(auto?.notes.join()).toContain('not judged on a cassette replay');
    expect(judgeLatency(evalData, { budget: { firstTokenMs: 100 } }, replayed, 'on')?.failures[0]).toContain('(replayed from the cassette)');
    expect(judgeLatency(evalData, { budget: { firstTokenMs: 100 } }, undefined, 'auto')?.notes.join()).toContain('reports no per-turn timings');
    expect(judgeLatency(evalData, { budget: { firstTokenMs: 100 } }, live, 'off')).toMatchObject({ judged: false, failures: [] });
    const turn = judgeLatency(evalData, { budget: { turnMs: 10 } }, live, 'auto');
    expect(turn).toMatchObject({ judged: false, failures: [] });
    expect(turn?.notes.join()).toContain('no audio loop');
    expect(judgeLatency(evalData, {}, undefined, 'auto')).toBeUndefined();
  });
});

describe('lintExtension', () => {
  it('finds unknown keys, bad budgets, turns past the last assistant message and unknown targets, with file:line', () => {
    const text = [
      'name: E',
      'type: chat.mockConversation',
      'messages:',
      '  - role: user',
      '    content: hi',
      '  - role: assistant',
      '    judgePlan: { type: exact, content: hi }',
      'x-voice:',
      '  target: nobody',
      '  budgets: 3',
      '  budget: { firstTokenMs: -1 }',
      '  turns:',
      '    - turn: 4',
      '',
    ].join('\n');
    const parsed = parseResource(kindNamed('evals') as Kind, 'e', 'evals/e.yml', text);
    expect(parsed.resource?.data['x-voice']).toBeUndefined();
    const problems = lintExtension(parsed.resource as NonNullable<typeof parsed.resource>, new Set(['front']));
    expect(problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '10: x-voice.budgets is not known to voice test (one of: target, source, budget, turns, transport)',
      '9: x-voice.target "nobody" names no assistant or squad file of this folder',
      '11: x-voice.budget.firstTokenMs must be a positive number of milliseconds',
      '13: x-voice.turns[0].turn must be the number of an assistant message, 1 to 1',
    ]);
  });
});
