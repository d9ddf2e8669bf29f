// A loopback OpenAI-compatible chat-completions server for tests, scripted per request: text
// answers, tool calls split over chunks, malformed chunks, silence, HTTP errors. It records every
// request (headers lower-cased, body parsed) so tests can assert what the model was sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from '../messages/index.js';

/** One tool call the fake model streams. */
export interface FakeToolCall {
  name: string;
  /** The arguments: an object (sent as JSON text) or the raw text. */
  arguments?: Json | string;
  /** Defaults to `call_<n>`. */
  id?: string;
  /** How many chunks the arguments text is split across (default 1). */
  chunks?: number;
}

/** How the fake model answers one request. */
export interface FakeReply {
  /** Streamed text. */
  text?: string;
  /** How many chunks the text is split across (default: one per word). */
  textChunks?: number;
  /** Streamed tool calls, in order, each with its own index. */
  toolCalls?: FakeToolCall[];
  /** Answer with this HTTP status and `body` instead of a stream. */
  status?: number;
  /** Error body (JSON object or text) for `status`. */
  body?: Json | string;
  /** Send a chunk that is not JSON (this text, or a default) after the text. */
  malformed?: boolean | string;
  /** Wait this long before the first byte (headers). */
  delayMs?: number;
  /** Never send a first byte; the request hangs until the client goes away. */
  hang?: boolean;
  /** Wait this long between chunks. */
  chunkDelayMs?: number;
}

/** One request the fake model received. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Json;
}

/** A script: replies taken in order, or a function of the request (and its 0-based index). */
export type FakeScript = FakeReply[] | ((request: FakeRequest, index: number) => FakeReply | Promise<FakeReply>);

/** A running fake model. */
export interface FakeModel {
  /** Base URL ending in /v1 (POST `${url}/chat/completions`). */
  url: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** The most requests it was answering at once (from arrival to the answer's end). */
  readonly peakInFlight: number;
  /** Queues more replies (used when the script is a list or absent). */
  push(...replies: FakeReply[]): void;
  /** Resolves with the request number `index` (0-based) once it has arrived. */
  request(index: number): Promise<FakeRequest>;
  close(): Promise<void>;
}

/** Splits text into `n` pieces of near-equal length (fewer when the text is shorter). */
export function splitInto(text: string, n: number): string[] {
  const count = Math.max(1, Math.min(n, text.length));
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

function textPieces(reply: FakeReply): string[] {
  const text = reply.text ?? '';
  if (!text) return [];
  if (reply.textChunks) return splitInto(text, reply.textChunks);
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

/** The SSE `data:` payloads for a reply, in order (without the final [DONE]). */
export function fakeChunks(reply: FakeReply): string[] {
  const chunk = (delta: Json, finish: string | null = null): string =>
    JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const piece of textPieces(reply)) out.push(chunk({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    const id = call.id ?? `call_${index + 1}`;
    out.push(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of splitInto(args, call.chunks ?? 1)) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  if (reply.malformed) out.push(typeof reply.malformed === 'string' ? reply.malformed : '{"choices": [ not json');
  out.push(chunk({}, reply.toolCalls?.length ? 'tool_calls' : 'stop'));
  return out;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(req: IncomingMessage): Promise<Json> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  try {
    return JSON.parse(text || '{}') as Json;
  } catch {
    return { unparsed: text };
  }
}

async function answer(res: ServerResponse, reply: FakeReply): Promise<void> {
  if (reply.hang) return; // the client's timeout or abort ends it
  if (reply.delayMs) await wait(reply.delayMs);
  if (res.destroyed) return;
  if (reply.status) {
    const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? { error: { message: `fake model: HTTP ${reply.status}` } });
    res.writeHead(reply.status, { 'content-type': typeof reply.body === 'string' ? 'text/plain' : 'application/json' });
    res.end(body);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const data of fakeChunks(reply)) {
    if (res.destroyed) return;
    res.write(`data: ${data}\n\n`);
    if (reply.chunkDelayMs) await wait(reply.chunkDelayMs);
  }
  res.end('data: [DONE]\n\n');
}

/**
 * Starts a fake model on 127.0.0.1, port 0; an unscripted request gets HTTP 500 saying so.
 *
 *     const fake = await startFakeModel([{ toolCalls: [{ name: 'trackParcel', arguments: { parcelId: '1' }, chunks: 4 }] }, { text: 'It arrives Tuesday.' }]);
 *     // point an assistant at it: { provider: 'custom-llm', url: fake.url } or startEmulator({ model: { url: fake.url } })
 *     expect((await fake.request(1)).body.messages).toContainEqual({ role: 'tool', tool_call_id: 'call_1', content: '...' });
 *     await fake.close();
 */
export async function startFakeModel(script?: FakeScript): Promise<FakeModel> {
  const queue: FakeReply[] = Array.isArray(script) ? [...script] : [];
  const respond = typeof script === 'function' ? script : undefined;
  const requests: FakeRequest[] = [];
  const waiters: { index: number; resolve: (r: FakeRequest) => void }[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
    res.once('close', () => inFlight--);
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      const request: FakeRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
      const index = requests.push(request) - 1;
      for (const w of waiters.filter((w) => w.index === index)) w.resolve(request);
      let reply: FakeReply | undefined;
      if (req.method !== 'POST' || !/\/chat\/completions$/.test(req.url ?? '')) reply = { status: 404, body: { error: { message: `fake model: no route ${req.method} ${req.url}` } } };
      else reply = respond ? await respond(request, index) : queue.shift();
      await answer(res, reply ?? { status: 500, body: { error: { message: `fake model: no scripted reply for request ${index}` } } });
    })().catch((err: unknown) => res.destroy(err as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get peakInFlight() {
      return peakInFlight;
    },
    push: (...replies) => void queue.push(...replies),
    request: (index) => (requests[index] ? Promise.resolve(requests[index]) : new Promise((resolve) => waiters.push({ index, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
