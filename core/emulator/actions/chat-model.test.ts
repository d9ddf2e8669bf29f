// Chats run by the assistant's model: a tool call goes to the developer's tool server and its
// result back to the model; `stream: true` answers the platform's events; a failing model answers
// the platform's error body; without a model the reply says it is scripted.
import { afterEach, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { NO_MODEL_HINT } from '../../model/index.js';
import { startFakeModel } from '../../model/testing.js';
import type { FakeReply } from '../../model/testing.js';
import { validateResponse } from '../../schemas/validate.js';
import { startHook } from '../calls/testing.js';
import type { Received } from '../calls/testing.js';
import { startEmulator } from '../index.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
type Obj = Record<string, unknown>;
let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.map((o) => o.close()));
  open = [];
});

async function setup(replies: FakeReply[] | undefined, tool?: (r: Received) => unknown) {
  const fake = await startFakeModel(replies);
  const tools = await startHook((r) => ({ json: tool?.(r) ?? {} }));
  const emu = await startEmulator(replies ? { model: { url: fake.url, model: 'fake-llm' } } : {});
  open.push(emu, fake, tools);
  const assistant = {
    name: 'Parcels',
    model: {
      provider: 'openai',
      model: 'gpt-4o-mini',
      messages: [{ role: 'system', content: 'You track parcels.' }],
      tools: [{ type: 'function', function: { name: 'trackParcel', parameters: { type: 'object', properties: { parcelId: { type: 'string' } } } }, server: { url: tools.url } }],
    },
  };
  const post = (path: string, body: Obj) => fetch(`${emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify({ assistant, ...body }) });
  return { fake, tools, emu, post };
}

const parcelTool = (r: Received) => ({ results: [{ toolCallId: ((r.message.toolCallList as Obj[])[0] as Obj).id, result: 'arrives Tuesday' }] });

describe('chats run by the model', () => {
  it('POST /chat: the model calls a tool, the tool server answers, the model replies', async () => {
    const { fake, tools, post } = await setup([{ toolCalls: [{ name: 'trackParcel', arguments: { parcelId: '77' }, chunks: 4 }] }, { text: 'Parcel 77 arrives Tuesday.' }], parcelTool);
    const res = await post('/chat', { input: 'Where is parcel 77?' });
    expect(res.status).toBe(201);
    const chat = (await res.json()) as { id: string; output: Obj[] };
    expect(chat.output.at(-1)).toMatchObject({ role: 'assistant', content: 'Parcel 77 arrives Tuesday.' });
    const sent = tools.received[0]?.message as Obj;
    expect(sent.type).toBe('tool-calls');
    expect((sent.chat as Obj).id).toBe(chat.id);
    expect(JSON.parse(((sent.toolCallList as Obj[])[0]?.function as { arguments: string }).arguments)).toEqual({ parcelId: '77' });
    expect(await messageProblems([sent])).toEqual([]);
    expect(fake.requests[1]?.body.messages).toContainEqual(expect.objectContaining({ role: 'tool', content: 'arrives Tuesday' }));
    expect(await validateResponse('POST', '/chat', chat)).toEqual([]);

    // The next chat continues from this one: the model sees the whole history.
    fake.push({ text: 'You are welcome.' });
    const next = (await (await post('/chat', { previousChatId: chat.id, input: 'Thanks' })).json()) as { output: Obj[] };
    expect(next.output.at(-1)).toMatchObject({ content: 'You are welcome.' });
    expect((fake.requests[2]?.body.messages as Obj[]).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('POST /chat/responses streams the Responses events unless stream is false (the published default), deltas from the model', async () => {
    const { post } = await setup([{ text: 'Hello there friend', textChunks: 3 }]);
    const res = await post('/chat/responses', { input: 'Hi' });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l.slice('data: '.length)) as Obj);
    const deltas = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta);
    expect(deltas.join('')).toBe('Hello there friend');
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed' });
    for (const e of events) expect(await validateResponse('POST', '/chat/responses', e)).toEqual([]);
  });

  it('POST /chat with stream: true answers content deltas on chat.output[0].content, every line one event of the published shape, no [DONE]', async () => {
    const { post } = await setup([{ text: 'One two three' }, { status: 500, body: { error: { message: 'boom' } } }]);
    const read = async (res: Response): Promise<Obj[]> =>
      (await res.text())
        .split('\n\n')
        .filter(Boolean)
        .map((l) => (expect(l.startsWith('data: {')).toBe(true), JSON.parse(l.slice('data: '.length)) as Obj));
    const events = await read(await post('/chat', { input: 'Count', stream: true }));
    expect(events.map((e) => e.delta).join('')).toBe('One two three');
    for (const e of events) expect(e).toEqual({ id: events[0]?.id, path: 'chat.output[0].content', delta: expect.any(String) });
    for (const e of events) expect(await validateResponse('POST', '/chat', e)).toEqual([]);
    // A failing model still ends the stream with an event of that shape, saying why.
    const failed = await read(await post('/chat', { input: 'Again', stream: true }));
    expect(failed).toEqual([{ id: expect.any(String), path: 'chat.output[0].content', delta: '', error: expect.stringContaining('500') }]);
  });

  it("a failing model answers the platform's error body", async () => {
    const { post } = await setup([{ status: 500, body: { error: { message: 'boom' } } }]);
    const res = await post('/chat', { input: 'Hi' });
    expect(res.status).toBe(500);
    const body = (await res.json()) as Obj;
    expect(body).toMatchObject({ statusCode: 500, error: 'Internal Server Error' });
    expect(String(body.message)).toContain('call.in-progress.error-providerfault-openai-500-server-error');
  });

  it('without a model, the scripted reply says so and how to configure one', async () => {
    const { post } = await setup(undefined);
    const chat = (await (await post('/chat', { input: 'Hi' })).json()) as { output: Obj[] };
    expect(String(chat.output[0]?.content)).toContain(NO_MODEL_HINT);
  });
});
