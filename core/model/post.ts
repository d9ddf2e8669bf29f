// The model step's default HTTP: undici.request on core's pool for posts (core/http, shared with
// the server-message posts), behind the small part of fetch's surface the gateway reads. Global
// fetch costs several times the CPU per request (web streams for the body sent and the answer
// read, a chunked upload), which a run of hundreds of model turns a second pays in turns the model
// waits for. The answer streams (its body is read as it comes), so core/http/text.ts, which reads
// an answer whole, does not fit here. Loaded on the first model request.
import type { Dispatcher } from 'undici';
import { ConnectionError } from '../client/errors.js';
import { headerOf, postPool } from '../http/undici.js';

/** What the gateway reads of an answer (a fetch Response has it all). */
export interface ModelResponse {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  body: AsyncIterable<Uint8Array> | null;
}

/** Posts a request body, as fetch would; a connection failure throws with the cause (`ECONNREFUSED` ...), which is what the gateway reads. */
export type ModelPost = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<ModelResponse>;

/** The default `ModelPost`: undici.request with the gateway's own abort signal (it times the first byte). */
export const undiciPost: ModelPost = async (url, init) => {
  const { dispatcher, request } = await postPool();
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal, dispatcher, headersTimeout: 0, bodyTimeout: 0 });
  } catch (error) {
    // Core's one "no usable answer" error (core/http/README.md). The gateway names the failure by its
    // cause (`ECONNREFUSED` ...), so it reads the same as an injected fetch's `TypeError('fetch failed')`.
    const code = (error as { code?: string }).code;
    throw new ConnectionError(`Connection error: ${(error as Error).message} (${init.method} ${url})`, { cause: error, code });
  }
  const get = (name: string): string | null => headerOf(res.headers, name);
  return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, headers: { get }, text: () => res.body.text(), body: res.body };
};
