import { afterEach, describe, expect, it } from 'vitest';
import { fakeChunks, splitInto, startFakeModel, type FakeModel } from './testing.js';

let fake: FakeModel;
afterEach(() => fake?.close());

const post = (url: string, body: unknown = {}): Promise<Response> =>
  fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-probe': 'yes' }, body: JSON.stringify(body) });

describe('startFakeModel', () => {
  it('answers from a queue, then says a request was not scripted; records bodies and headers', async () => {
    fake = await startFakeModel([{ text: 'one' }]);
    const first = await (await post(fake.url, { model: 'm' })).text();
    expect(first).toContain('"content":"one"');
    expect(first.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const second = await post(fake.url);
    expect(second.status).toBe(500);
    expect(await second.text()).toContain('no scripted reply for request 1');
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'm' }, headers: { 'x-probe': 'yes' } });
    fake.push({ status: 418, body: 'teapot' });
    const third = await post(fake.url);
    expect([third.status, await third.text()]).toEqual([418, 'teapot']);
  });

  it('answers by a function of the request, and request(i) waits for request i', async () => {
    fake = await startFakeModel((req, i) => ({ text: `#${i} ${String((req.body.messages as { content: string }[]).at(-1)?.content)}` }));
    const waiting = fake.request(1);
    await post(fake.url, { messages: [{ role: 'user', content: 'a' }] });
    await post(fake.url, { messages: [{ role: 'user', content: 'b' }] });
    expect((await waiting).body).toEqual({ messages: [{ role: 'user', content: 'b' }] });
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses other routes with 404', async () => {
    fake = await startFakeModel([{ text: 'x' }]);
    expect((await fetch(`${fake.url}/models`)).status).toBe(404);
  });

  it('splits text and tool-call arguments into the asked number of chunks, each call with its index', () => {
    expect(splitInto('abcdefgh', 4)).toEqual(['ab', 'cd', 'ef', 'gh']);
    expect(splitInto('ab', 4)).toEqual(['a', 'b']);
    const chunks = fakeChunks({ text: 'Hi there', textChunks: 2, toolCalls: [{ name: 'f', arguments: { a: 1 }, chunks: 3 }, { name: 'g' }] }).map(
      (c) => JSON.parse(c) as { choices: { delta: Record<string, unknown>; finish_reason: string | null }[] },
    );
    const deltas = chunks.map((c) => c.choices[0]!.delta);
    expect(deltas.filter((d) => typeof d.content === 'string' && d.content).map((d) => d.content)).toEqual(['Hi t', 'here']);
    const pieces = deltas.flatMap((d) => (d.tool_calls as { index: number; function: { arguments: string } }[] | undefined) ?? []);
    expect(pieces.filter((p) => p.index === 0).map((p) => p.function.arguments)).toEqual(['', '{"a', '":1', '}']);
    expect(pieces.filter((p) => p.index === 1)).toHaveLength(2);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });
});
