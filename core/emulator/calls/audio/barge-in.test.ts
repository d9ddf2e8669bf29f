// The customer talking over the assistant, on the call's own clock: stopSpeakingPlan decides
// whether the assistant stops, at which word; what it said by then is what the transcript, the
// conversation and the model's next request keep; acknowledgements and the first message do not
// stop it.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../../messages/index.js';
import { startFakeModel } from '../../../model/testing.js';
import { audioCall } from './calls.test-support.js';

const LONG = 'We open at nine in the morning on weekdays, at ten on Saturdays, and we stay closed on Sundays and public holidays.';
const STOP = { stopSpeakingPlan: { numWords: 0, voiceSeconds: 0.2 } };

describe('barge-in (stopSpeakingPlan)', () => {
  it('a customer line 1 s into a 6 s reply cuts it at the word reached: user-interrupted, counted, the transcript and the next model request cut', async () => {
    const fake = await startFakeModel([{ text: LONG }, { text: 'Sure, just the weekend then.' }]);
    const c = await audioCall({ firstMessage: 'Hello.', ...STOP }, { turns: [{ say: 'When are you open?' }, { say: 'Just the weekend, please.', interrupt: { afterSeconds: 1 } }] }, { model: fake });
    await fake.close();
    const reply = c.events('speech').find((e) => e.side === 'assistant' && e.text === LONG);
    expect(reply).toBeDefined();
    expect(reply!.words.at(-1)!.end - reply!.at).toBeGreaterThan(5.5);
    const [cut] = c.events('interruption');
    expect(cut).toMatchObject({ by: 'customer', rule: 'voiceSeconds' });
    const customer = c.events('speech').find((e) => e.side === 'customer' && e.text === 'Just the weekend, please.')!;
    expect(customer.at - reply!.at).toBeCloseTo(1, 3);
    // Cut once the detector has heard 0.2 s of the customer's speech.
    const vad = c.events('vad').find((v) => v.at >= customer.at)!;
    expect(cut!.at).toBeCloseTo(vad.at + 0.2, 2);
    expect(reply!.cut?.at).toBe(cut!.at);
    const heard = reply!.cut!.heard;
    expect(heard.split(' ').length).toBeLessThan(LONG.split(' ').length / 2);
    expect(LONG.startsWith(heard)).toBe(true);
    expect(c.types()).toContain('user-interrupted');
    expect((c.call.artifact as Json).performanceMetrics).toMatchObject({ numAssistantInterrupted: 1, numUserInterrupted: 0 });
    expect(c.transcript()).toContain(`AI: ${heard}`);
    expect(c.transcript().join('\n')).not.toContain('public holidays');
    // The model's next request has only what was said.
    const second = fake.requests[1]!.body.messages as { role: string; content: string }[];
    expect(second.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['Hello.', heard]);
    expect(second.at(-1)).toEqual({ role: 'user', content: 'Just the weekend, please.' });
  });

  it('"yeah" listed in acknowledgementPhrases does not stop it, and is no turn of its own', async () => {
    const fake = await startFakeModel([{ text: LONG }]);
    const c = await audioCall(
      { firstMessage: 'Hello.', stopSpeakingPlan: { ...STOP.stopSpeakingPlan, acknowledgementPhrases: ['yeah'] } },
      { turns: [{ say: 'When are you open?' }, { say: 'yeah', interrupt: { afterSeconds: 1 } }] },
      { model: fake },
    );
    await fake.close();
    expect(c.events('interruption')).toEqual([]);
    expect(c.events('acknowledgement')).toMatchObject([{ text: 'yeah' }]);
    expect(c.types()).not.toContain('user-interrupted');
    expect(c.transcript()).toContain(`AI: ${LONG}`);
    expect(c.transcript()).not.toContain('User: yeah');
    expect((c.call.artifact as Json).performanceMetrics).toMatchObject({ numAssistantInterrupted: 0 });
  });

  it('the first message is never cut with firstMessageInterruptionsEnabled false (the default); with true it is', async () => {
    const scenario = { turns: [{ say: 'Sorry, can you hurry up?', interrupt: { afterWords: 3 } }] };
    const kept = await audioCall({ firstMessage: LONG, ...STOP }, scenario);
    expect(kept.events('speech').find((e) => e.source === 'first-message')?.cut).toBeUndefined();
    expect(kept.transcript()[0]).toBe(`AI: ${LONG}`);
    // Talked over, not cut: the customer's words still make their turn, and that counts as the assistant interrupting them.
    expect(kept.events('interruption')).toMatchObject([{ by: 'assistant', rule: 'firstMessageInterruptionsEnabled is off' }]);
    expect((kept.call.artifact as Json).performanceMetrics).toMatchObject({ numAssistantInterrupted: 0, numUserInterrupted: 1 });
    expect(kept.transcript()).toContain('User: Sorry, can you hurry up?');

    const cut = await audioCall({ firstMessage: LONG, firstMessageInterruptionsEnabled: true, ...STOP }, scenario);
    const first = cut.events('speech').find((e) => e.source === 'first-message')!;
    expect(first.cut).toBeDefined();
    // "after 3 words": the customer starts where the assistant's third word ends.
    const customer = cut.events('speech').find((e) => e.side === 'customer')!;
    expect(customer.at).toBeCloseTo(first.words[2]!.end, 3);
    expect(cut.transcript()[0]).toBe(`AI: ${first.cut!.heard}`);
  });

  it("numWords: the assistant stops at the end of the customer's Nth word; an interruption phrase stops it at once", async () => {
    const words = await audioCall(
      { firstMessage: LONG, firstMessageInterruptionsEnabled: true, stopSpeakingPlan: { numWords: 3 } },
      { turns: [{ say: 'I need a table tonight.', interrupt: { afterSeconds: 1 } }] },
    );
    const customer = words.events('speech').find((e) => e.side === 'customer')!;
    expect(words.events('interruption')[0]).toMatchObject({ by: 'customer', rule: 'numWords', at: customer.words[2]!.end });
    const phrase = await audioCall({ firstMessage: LONG, firstMessageInterruptionsEnabled: true, stopSpeakingPlan: { numWords: 5 } }, { turns: [{ say: 'Wait.', interrupt: { afterSeconds: 1 } }] });
    const wait = phrase.events('speech').find((e) => e.side === 'customer')!;
    expect(phrase.events('interruption')[0]).toMatchObject({ by: 'customer', rule: 'interruptionPhrases', at: wait.words[0]!.end });
  });

  it('backoffSeconds: after a cut the assistant answers no sooner than backoffSeconds after it stopped', async () => {
    const c = await audioCall(
      { firstMessage: LONG, firstMessageInterruptionsEnabled: true, stopSpeakingPlan: { numWords: 0, voiceSeconds: 0.2, backoffSeconds: 6 } },
      { turns: [{ say: 'Hi.', interrupt: { afterSeconds: 1 } }, { say: 'Bye.' }] },
    );
    const cut = c.events('interruption')[0]!;
    const reply = c.events('speech').find((e) => e.side === 'assistant' && e.source === 'reply')!;
    expect(reply.at).toBeCloseTo(cut.at + 6, 3);
  });
});
