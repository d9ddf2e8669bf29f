// The developer's own knowledge base on `voice dev`: a fake server on loopback is asked before each
// model turn (`knowledge-base-request` with the conversation); its documents reach the model's
// request, its message is spoken instead of the model's answer, and a failing server is logged
// while the turn goes on without documents.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../messages/index.js';
import { startFakeModel } from '../../model/testing.js';
import { validateServerMessage, validateServerMessageResponse } from '../../schemas/validate.js';
import { audioCall } from './audio/calls.test-support.js';
import { startHook } from './testing.js';
import type { HookAnswer } from './testing.js';

const SCENARIO = { turns: [{ say: 'When do you open?' }, { say: 'Thanks, bye.' }] };
const withKb = (url: string): Json => ({ model: { provider: 'openai', model: 'gpt-4o-mini', knowledgeBase: { provider: 'custom-knowledge-base', server: { url, timeoutSeconds: 5 } } } });
const logsOf = async (emuUrl: string, id: string): Promise<string> => (await fetch(`${emuUrl}/call/${id}/call-logs`, { headers: { authorization: 'Bearer k' } })).text();
type Sent = { role: string; content: string }[];

describe('a custom knowledge base', () => {
  it("is asked with the conversation before the model; its documents are in the model's request", async () => {
    const answer = { documents: [{ content: 'Opening hours: nine to five, Monday to Saturday.', similarity: 0.9 }] };
    expect(await validateServerMessageResponse('knowledge-base-request', answer)).toEqual([]);
    const kb = await startHook(() => ({ json: answer }));
    const model = await startFakeModel([{ text: 'We open at nine.' }, { text: 'Goodbye!' }]);
    try {
      const c = await audioCall(withKb(kb.url), SCENARIO, { model });
      const asked = kb.received.filter((r) => r.message.type === 'knowledge-base-request');
      expect(asked.length).toBeGreaterThanOrEqual(1);
      expect((asked[0]!.message.messagesOpenAIFormatted as Sent).at(-1)).toEqual({ role: 'user', content: 'When do you open?' });
      expect((asked[0]!.message.messages as { role: string; message: string }[]).at(-1)).toMatchObject({ role: 'user', message: 'When do you open?' });
      for (const r of asked) expect(await validateServerMessage(r.message)).toEqual([]);
      const sent = model.requests[0]!.body.messages as Sent;
      const doc = sent.findIndex((m) => m.role === 'system' && m.content.includes('Opening hours: nine to five'));
      expect(doc).toBeGreaterThanOrEqual(0);
      expect(sent[doc + 1]).toEqual({ role: 'user', content: 'When do you open?' });
      expect(c.transcript()).toContain('AI: We open at nine.');
      // The answer is on the timeline, for the inspector.
      expect(c.events('knowledge-base')[0]).toMatchObject({ url: kb.url, documents: answer.documents });
    } finally {
      await Promise.all([kb.close(), model.close()]);
    }
  });

  it("speaks a message answer instead of the model's output", async () => {
    const kb = await startHook(() => ({ json: { message: { role: 'assistant', content: 'We open at nine every morning.' } } }));
    const model = await startFakeModel([{ text: 'The model should not be heard.' }]);
    try {
      const c = await audioCall(withKb(kb.url), SCENARIO, { model });
      expect(c.transcript()).toContain('AI: We open at nine every morning.');
      expect(c.transcript().join('\n')).not.toContain('should not be heard');
      expect(model.requests).toHaveLength(0);
      expect(c.events('knowledge-base')[0]).toMatchObject({ documents: [], say: 'We open at nine every morning.' });
    } finally {
      await Promise.all([kb.close(), model.close()]);
    }
  });

  it.each([
    ['refused', undefined, 'could not connect'],
    ['answering 500', { status: 500, json: {} }, 'HTTP 500'],
    ['answering neither documents nor a message', { json: { docs: [] } }, 'neither documents nor a message'],
  ] as const)('%s: logged, and the turn goes on without documents', async (name, answer, cause) => {
    const kb = await startHook(() => answer as HookAnswer | undefined);
    const url = kb.url;
    if (name === 'refused') await kb.close();
    const model = await startFakeModel([{ text: 'We open at nine.' }, { text: 'Goodbye!' }]);
    try {
      const c = await audioCall(withKb(url), SCENARIO, { model });
      expect(c.transcript()).toContain('AI: We open at nine.');
      expect((model.requests[0]!.body.messages as Sent).some((m) => m.content.includes('knowledge base'))).toBe(false);
      const logs = await logsOf(c.emu.url, String(c.call.id));
      expect(logs).toContain('The knowledge base failed');
      expect(c.events('knowledge-base')[0]).toMatchObject({ url, documents: [], failed: expect.stringContaining(cause) });
      expect(logs).toContain(cause);
    } finally {
      await Promise.all([name === 'refused' ? undefined : kb.close(), model.close()]);
    }
  });
});
