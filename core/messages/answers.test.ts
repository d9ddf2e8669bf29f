// The one judge of answers: what the platform accepts passes (its guides' tool-calls answer has no
// `name`), fields the platform does not need are notes, and the emulator reads results the same way.
import { describe, expect, it } from 'vitest';
import { destinationOf, judgeAnswer, toolResultOf } from './answers.js';
import { sampleServerMessage } from './samples.js';

describe('judgeAnswer', () => {
  it('accepts the documented tool-calls answer without `name`, with a note', async () => {
    const m = sampleServerMessage('tool-calls');
    const verdict = await judgeAnswer(m, { results: [{ toolCallId: 'call_sample_1', result: 'Booked.' }] });
    expect(verdict?.problems).toEqual([]);
    expect(verdict?.notes).toEqual([expect.stringMatching(/^results\.0\.name is not given/)]);
  });
  it('still refuses what the platform refuses: a missing toolCallId, a result for no call', async () => {
    const m = sampleServerMessage('tool-calls');
    const verdict = await judgeAnswer(m, { results: [{ result: 'Booked.' }] });
    expect(verdict?.problems).toContain('results: no result for tool call call_sample_1 (bookAppointment)');
    expect(verdict?.problems.some((p) => p.startsWith('results.0.toolCallId'))).toBe(true);
  });
  it('judges destination answers: a handoff answer needs a destination or an error', async () => {
    expect((await judgeAnswer(sampleServerMessage('handoff-destination-request'), { destination: { type: 'assistant', assistantName: 'Billing' } }))?.problems).toEqual([]);
    expect((await judgeAnswer(sampleServerMessage('transfer-destination-request'), {}))?.problems).toEqual([expect.stringMatching(/^names none of destination, error/)]);
    // The schema requires `destination`, but an `error` alone is how a server refuses the handoff.
    expect(await judgeAnswer(sampleServerMessage('handoff-destination-request'), { error: 'Nobody free.' })).toEqual({ problems: [], notes: [expect.stringMatching(/^destination is not given/)] });
    expect((await judgeAnswer(sampleServerMessage('handoff-destination-request'), {}))?.problems).toEqual([expect.stringMatching(/^names none of destination, error: the handoff has nowhere to go/)]);
  });

  it('judges knowledge-base answers: documents or a message, else the knowledge base gave nothing', async () => {
    const m = sampleServerMessage('knowledge-base-request');
    expect((await judgeAnswer(m, { documents: [{ content: 'Open nine to five.', similarity: 1 }] }))?.problems).toEqual([]);
    expect((await judgeAnswer(m, { documents: [] }))?.problems).toEqual([]);
    expect((await judgeAnswer(m, { ok: true }))?.problems).toEqual([expect.stringMatching(/^names none of documents, message: the knowledge base gave nothing/)]);
  });
});

describe('reading answers', () => {
  it('takes the result matched by toolCallId, from the answer or its messageResponse', () => {
    expect(
      toolResultOf(
        {
          results: [
            { toolCallId: 'a', result: 'x' },
            { toolCallId: 'b', result: { n: 1 } },
          ],
        },
        'b',
      ),
    ).toEqual({ result: '{"n":1}' });
    expect(toolResultOf({ results: [{ toolCallId: 'a', result: 'x' }] }, 'b').error).toMatch(/no result for tool call b/);
    expect(toolResultOf({ results: [{ toolCallId: 'a', error: 'down' }] }, 'a')).toEqual({ error: 'down' });
  });
  it('reads a destination answer: destination, error, result', () => {
    expect(destinationOf({ destination: { type: 'number', number: '+15555550123' } })).toEqual({ destination: { type: 'number', number: '+15555550123' } });
    expect(destinationOf({ error: 'closed' })).toEqual({ error: 'closed' });
    expect(destinationOf({}).error).toMatch(/no destination/);
  });
});
