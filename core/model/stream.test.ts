import { describe, expect, it } from 'vitest';
import { MalformedStream, readCompletion, readStream } from './stream.js';

/** The bytes of an SSE stream, cut into pieces of `size` bytes (splitting lines and characters). */
async function* bytes(text: string, size: number): AsyncIterable<Uint8Array> {
  const all = new TextEncoder().encode(text);
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

const data = (chunk: unknown): string => `data: ${JSON.stringify(chunk)}\r\n\r\n`;
const delta = (d: unknown) => ({ choices: [{ index: 0, delta: d }] });

async function read(text: string, size = 7) {
  const deltas: string[] = [];
  const seen = { firstByte: 0, firstToken: 0 };
  const answer = await readStream(bytes(text, size), { onFirstByte: () => seen.firstByte++, onFirstToken: () => seen.firstToken++, onDelta: (t) => deltas.push(t) });
  return { answer, deltas, seen };
}

describe('readStream', () => {
  it('reads CRLF events cut at any byte, keep-alive comments, multi-byte characters and a usage chunk without choices', async () => {
    const text = `: keep-alive\r\n\r\n${data(delta({ role: 'assistant', content: '' }))}${data(delta({ content: 'Grüße, ' }))}${data(delta({ content: '日本' }))}${data({ choices: [], usage: { total_tokens: 9 } })}data: [DONE]\r\n\r\n`;
    for (const size of [1, 3, 7, 1000]) {
      const { answer, deltas, seen } = await read(text, size);
      expect(answer).toEqual({ text: 'Grüße, 日本', deltas: ['Grüße, ', '日本'], toolCalls: [] });
      expect(deltas).toEqual(['Grüße, ', '日本']);
      expect(seen).toEqual({ firstByte: 1, firstToken: 1 });
    }
  });

  it('assembles tool calls from servers that omit the index: a new id starts a call, pieces without id continue the last', async () => {
    const text =
      data(delta({ tool_calls: [{ id: 'a', type: 'function', function: { name: 'one', arguments: '{"x"' } }] })) +
      data(delta({ tool_calls: [{ function: { arguments: ':1}' } }] })) +
      data(delta({ tool_calls: [{ id: 'b', type: 'function', function: { name: 'two', arguments: '{}' } }] })) +
      'data: [DONE]\n\n';
    const { answer } = await read(text);
    expect(answer.toolCalls).toEqual([
      { id: 'a', name: 'one', arguments: '{"x":1}' },
      { id: 'b', name: 'two', arguments: '{}' },
    ]);
  });

  it('gives a call without an id one; a stream that ends without [DONE] after chunks is accepted', async () => {
    const { answer } = await read(data(delta({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{}' } }] })));
    expect(answer.toolCalls).toEqual([{ id: 'call_0', name: 'f', arguments: '{}' }]);
  });

  it('refuses an empty stream, an error event, a call without a name', async () => {
    await expect(read('')).rejects.toThrow(MalformedStream);
    await expect(read(data({ error: { message: 'model overloaded' } }))).rejects.toThrow('model overloaded');
    await expect(read(data(delta({ tool_calls: [{ index: 0, id: 'x', function: { arguments: '{}' } }] })))).rejects.toThrow('no function name');
  });
});

describe('readCompletion', () => {
  it('reads a non-streamed completion and refuses what is not one', () => {
    expect(readCompletion(JSON.stringify({ choices: [{ message: { content: 'Hi' } }] }))).toEqual({ text: 'Hi', deltas: ['Hi'], toolCalls: [] });
    expect(() => readCompletion('<html>')).toThrow(MalformedStream);
    expect(() => readCompletion('{}')).toThrow('choices[0].message');
  });
});
