// Reads a chat-completions answer: an SSE stream of chunks (text deltas, tool calls assembled by
// index from pieces), or a plain JSON completion from a server that does not stream.
import { createParser } from 'eventsource-parser';
import type { Json } from '../messages/index.js';
import type { ModelToolCall } from './types.js';
import { VoiceError } from '../errors.js';
import { isObject } from '../json.js';

/** What a model answered. */
export interface Answer {
  text: string;
  /** The text as it arrived, one entry per delta (what a cassette replays). */
  deltas: string[];
  toolCalls: ModelToolCall[];
}

/** A stream that broke the protocol. */
export class MalformedStream extends VoiceError {}

function errorText(err: unknown): string {
  if (isObject(err)) return typeof err.message === 'string' ? err.message : JSON.stringify(err);
  return String(err);
}

/** Assembles streamed tool-call pieces: the first piece of an index carries id and name, later ones append arguments. */
class ToolCallAssembler {
  private readonly calls = new Map<number, ModelToolCall>();

  add(piece: Json): void {
    const index = typeof piece.index === 'number' ? piece.index : this.indexWithout(piece);
    const fn = isObject(piece.function) ? piece.function : {};
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.set(index, call);
    }
    if (typeof piece.id === 'string' && piece.id && !call.id) call.id = piece.id;
    if (typeof fn.name === 'string' && fn.name) call.name = call.name && call.name !== fn.name ? call.name + fn.name : fn.name;
    if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
  }

  /** Some servers omit `index`: a new id starts a call, a known id continues it, no id continues the last one. */
  private indexWithout(piece: Json): number {
    const id = typeof piece.id === 'string' && piece.id ? piece.id : undefined;
    const known = id ? [...this.calls.entries()].find(([, c]) => c.id === id) : undefined;
    if (known) return known[0];
    const last = Math.max(-1, ...this.calls.keys());
    return id || last < 0 ? last + 1 : last;
  }

  result(): ModelToolCall[] {
    const list = [...this.calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
    list.forEach((c, i) => {
      if (!c.name) throw new MalformedStream(`tool call ${i} has no function name`);
      if (!c.id) c.id = `call_${i}`;
    });
    return list;
  }
}

/** Reads an SSE chat-completions stream; `onFirstByte` fires at the first body byte, `onDelta` per text delta. */
export async function readStream(body: AsyncIterable<Uint8Array>, hooks: { onFirstByte(): void; onFirstToken(): void; onDelta(text: string): void }): Promise<Answer> {
  const deltas: string[] = [];
  const tools = new ToolCallAssembler();
  let done = false;
  let sawChunk = false;
  let tokened = false;
  let problem: Error | undefined;
  const parser = createParser({
    onEvent(event) {
      if (done || problem) return;
      const data = event.data.trim();
      if (data === '[DONE]') {
        done = true;
        return;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        problem = new MalformedStream(`a chunk is not JSON: ${data.length > 120 ? `${data.slice(0, 120)}…` : data}`);
        return;
      }
      if (!isObject(chunk)) return void (problem = new MalformedStream('a chunk is not a JSON object'));
      if (chunk.error !== undefined) return void (problem = new MalformedStream(`the stream reported an error: ${errorText(chunk.error)}`));
      sawChunk = true;
      const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : undefined;
      const delta = choice && isObject(choice.delta) ? choice.delta : undefined;
      if (!delta) return;
      const text = typeof delta.content === 'string' ? delta.content : '';
      const pieces = Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isObject) : [];
      if ((text || pieces.length) && !tokened) {
        tokened = true;
        hooks.onFirstToken();
      }
      pieces.forEach((p) => tools.add(p));
      if (text) {
        deltas.push(text);
        hooks.onDelta(text);
      }
    },
  });
  const decoder = new TextDecoder();
  let first = true;
  for await (const bytes of body) {
    if (first) {
      first = false;
      hooks.onFirstByte();
    }
    parser.feed(decoder.decode(bytes, { stream: true }));
    if (problem) throw problem;
    if (done) break;
  }
  parser.feed(decoder.decode());
  if (problem) throw problem;
  if (!done && !sawChunk) throw new MalformedStream('the stream ended without any chunk');
  return { text: deltas.join(''), deltas, toolCalls: tools.result() };
}

/** Reads a non-streamed JSON completion (a server that ignored `stream: true`). */
export function readCompletion(text: string): Answer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MalformedStream(`the answer is neither an event stream nor JSON: ${text.slice(0, 120)}`);
  }
  const choice = isObject(json) && Array.isArray(json.choices) && isObject(json.choices[0]) ? json.choices[0] : undefined;
  const message = choice && isObject(choice.message) ? choice.message : undefined;
  if (!message) throw new MalformedStream('the JSON answer has no choices[0].message');
  const content = typeof message.content === 'string' ? message.content : '';
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : [];
  const tools = new ToolCallAssembler();
  calls.forEach((c, i) => tools.add({ ...c, index: i }));
  return { text: content, deltas: content ? [content] : [], toolCalls: tools.result() };
}
