// A credential's secrets go in and are used, and never come back out, as on the platform (its
// reference marks them "not returned in the API"; the derived schemas say `writeOnly`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '../../model/testing.js';
import type { FakeModel } from '../../model/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';

const SECRET = 'sk-credential-canary-5e7a9c1b3d';
let emu: Emulator;
let model: FakeModel;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  model = await startFakeModel(() => ({ text: 'Hello there.' }));
});
afterAll(async () => {
  await Promise.all([emu?.close(), model?.close()]);
});

const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> => {
  const res = await fetch(`${emu.url}${path}`, { method, headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, text: await res.text() };
};

describe('credentials', () => {
  it('answers a custom-llm credential without its key on create, get, list, update and delete', async () => {
    const created = await api('POST', '/credential', { provider: 'custom-llm', apiKey: SECRET, name: 'mine' });
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.text) as { id: string };
    expect(JSON.parse(created.text)).toMatchObject({ id, provider: 'custom-llm', name: 'mine' });
    const answers = [created, await api('GET', `/credential/${id}`), await api('GET', '/credential'), await api('PATCH', `/credential/${id}`, { name: 'renamed' })];
    for (const a of answers) expect(a.text).not.toContain(SECRET);
    expect((await api('DELETE', `/credential/${id}`)).text).not.toContain(SECRET);
  });

  it("answers an assistant without its inline credential's key, and calls its model with it", async () => {
    const created = await api('POST', '/assistant', { name: 'a', model: { provider: 'custom-llm', url: model.url, model: 'm' }, credentials: [{ provider: 'custom-llm', apiKey: SECRET }] });
    expect(created.status, created.text).toBe(201);
    const assistant = JSON.parse(created.text) as { id: string; credentials: unknown[] };
    expect(assistant.credentials).toEqual([{ provider: 'custom-llm' }]);
    for (const a of [created, await api('GET', `/assistant/${assistant.id}`), await api('GET', '/assistant')]) expect(a.text).not.toContain(SECRET);
    const chat = await api('POST', '/chat', { assistantId: assistant.id, input: 'Hi' });
    expect(chat.status, chat.text).toBe(201);
    expect(chat.text).not.toContain(SECRET);
    expect((await model.request(0)).headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('keeps what the platform does answer: a webhook credential plan, which voice trigger signs with', async () => {
    const created = await api('POST', '/credential', { provider: 'webhook', authenticationPlan: { type: 'bearer', token: 'bearer-token-0123' } });
    expect(JSON.parse(created.text)).toMatchObject({ authenticationPlan: { type: 'bearer', token: 'bearer-token-0123' } });
  });
});
