// A loopback OpenAI-compatible chat-completions server for tests, scripted per request.
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
  /** Queues more replies (used when the script is a list or absent). */
  push(...replies: FakeReply[]): void;
  /** Resolves with the request number `index` (0-based) once it has arrived. */
  request(index: number): Promise<FakeRequest>;
  close(): Promise<void>;
}

/** Starts a fake model on 127.0.0.1, port 0; an unscripted request gets HTTP 500 saying so. */
export async function startFakeModel(script?: FakeScript): Promise<FakeModel> {
  void script;
  throw new Error('core/model: startFakeModel is not implemented yet');
}
