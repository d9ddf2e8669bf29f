// The developer's own endpointing on `voice dev`: each customer transcript is asked of a fake
// server on loopback (`call.endpointing.request` with the conversation), its `timeoutSeconds` holds
// the turn that long on the call's clock and is asked again for speech that starts within it, and
// a refused or garbled server falls back to the transcription endpointing plan, saying so.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../../messages/index.js';
import { validateServerMessage, validateServerMessageResponse } from '../../../schemas/validate.js';
import { startHook } from '../testing.js';
import type { HookAnswer } from '../testing.js';
import { audioCall } from './calls.test-support.js';
import { CUSTOM_RULE } from './custom-endpointing.js';

const endpointing = (url: string): Json => ({ smartEndpointingPlan: { provider: 'custom-endpointing-model', server: { url, timeoutSeconds: 5 } } });
const logsOf = async (emuUrl: string, id: string): Promise<string> => (await fetch(`${emuUrl}/call/${id}/call-logs`, { headers: { authorization: 'Bearer k' } })).text();

describe('a custom endpointing model', () => {
  it("is asked with the conversation and the transcript; an answer of 2 s holds the turn 2 s on the call's clock", async () => {
    const answer: HookAnswer = { json: { timeoutSeconds: 2 } };
    expect(await validateServerMessageResponse('call.endpointing.request', answer.json)).toEqual([]);
    const server = await startHook(() => answer);
    try {
      const c = await audioCall({ firstMessage: 'Blue Door, how can I help?', startSpeakingPlan: endpointing(server.url) }, { turns: [{ say: 'I need to reschedule.' }, { say: 'Thanks, bye.' }] });
      const [first] = c.events('endpoint');
      expect(first).toMatchObject({ rule: CUSTOM_RULE, seconds: 2, transcript: 'I need to reschedule.' });
      expect(first!.at - first!.speechEnd).toBeCloseTo(2, 3);
      // Each answer is on the timeline, for the inspector.
      expect(c.events('endpointing')).toContainEqual(expect.objectContaining({ url: server.url, transcript: 'I need to reschedule.', timeoutSeconds: 2 }));
      const asked = server.received.filter((r) => r.message.type === 'call.endpointing.request');
      expect(asked.length).toBeGreaterThanOrEqual(2);
      const msgs = asked[0]!.message.messages as { role: string; message: string }[];
      expect(msgs.at(-1)).toMatchObject({ role: 'user', message: 'I need to reschedule.' });
      expect(msgs.some((m) => m.role === 'bot' && m.message === 'Blue Door, how can I help?')).toBe(true);
      expect((asked[0]!.message.messagesOpenAIFormatted as Json[]).at(-1)).toEqual({ role: 'user', content: 'I need to reschedule.' });
      for (const r of asked) expect(await validateServerMessage(r.message)).toEqual([]);
      // The reply waited for the endpointing answer: it starts no sooner than 2 s after the speech.
      expect(c.events('latency')[0]!.endpointingLatency).toBe(2000);
    } finally {
      await server.close();
    }
  });

  it('asks again for each new transcript: a pause shorter than the answer stays one turn, a longer one makes two', async () => {
    const line = { turns: [{ say: 'I would like to book [0.8s] a table for two.' }, { say: 'Bye.' }] };
    for (const [seconds, turns] of [
      [2, 1],
      [0.3, 2],
    ] as const) {
      const server = await startHook(() => ({ json: { timeoutSeconds: seconds } }));
      try {
        const c = await audioCall({ startSpeakingPlan: endpointing(server.url) }, line);
        const users = c.transcript().filter((l) => l.startsWith('User:'));
        expect(users.length - 1).toBe(turns);
        expect(server.received.filter((r) => r.message.type === 'call.endpointing.request').length).toBeGreaterThanOrEqual(3);
      } finally {
        await server.close();
      }
    }
  });

  it.each([
    ['refused', undefined, 'could not connect'],
    ['answering garbage', { json: { timeoutSeconds: 'soon' } }, 'no timeoutSeconds from 0 to 15'],
    ['answering 500', { status: 500, json: {} }, 'HTTP 500'],
  ] as const)('%s: the transcription endpointing plan decides and the log says so; the call goes on', async (name, answer, cause) => {
    const server = await startHook(() => answer as HookAnswer | undefined);
    const url = server.url;
    if (name === 'refused') await server.close();
    try {
      const c = await audioCall({ startSpeakingPlan: endpointing(url) }, { turns: [{ say: 'I need to reschedule.' }, { say: 'Bye.' }] });
      expect(c.events('endpoint')[0]).toMatchObject({ rule: 'onPunctuationSeconds', seconds: 0.1 });
      expect(c.events('endpointing')[0]).toMatchObject({ url, timeoutSeconds: 0.1, failed: expect.stringContaining(cause) });
      expect(c.transcript()).toContain('User: I need to reschedule.');
      const logs = await logsOf(c.emu.url, String(c.call.id));
      expect(logs).toContain('Custom endpointing failed');
      expect(logs).toContain(cause);
    } finally {
      if (name !== 'refused') await server.close();
    }
  });
});
