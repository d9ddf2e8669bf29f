// The model step's default HTTP: undici.request on one keep-alive pool, behind the small part of
// fetch's surface the gateway reads. Global fetch costs several times the CPU per request (web
// streams for the body sent and the answer read, a chunked upload), which a run of hundreds of
// model turns a second pays in turns the model waits for. Loaded on the first model request.
import type { Agent, request as Request } from 'undici';

/** What the gateway reads of an answer (a fetch Response has it all). */
export interface ModelResponse {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  body: AsyncIterable<Uint8Array> | null;
}

/** Posts a request body, as fetch would (a connection failure throws `fetch failed` with the cause). */
export type ModelPost = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<ModelResponse>;

let undici: Promise<{ pool: Agent; request: typeof Request }> | undefined;
function client(): NonNullable<typeof undici> {
  undici ??= import('undici').then((m) => {
    // A bundle may hand the CommonJS module over as `default` only (the CLI's esbuild bundle does).
    const { Agent, request } = typeof m.Agent === 'function' ? m : (m as unknown as { default: typeof m }).default;
    return { pool: new Agent({ keepAliveTimeout: 10_000 }), request };
  });
  return undici;
}

/** The default `ModelPost`: undici.request with the gateway's own abort signal (it times the first byte). */
export const undiciPost: ModelPost = async (url, init) => {
  const { pool, request } = await client();
  let res: Awaited<ReturnType<typeof Request>>;
  try {
    res = await request(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal, dispatcher: pool, headersTimeout: 0, bodyTimeout: 0 });
  } catch (error) {
    // As fetch reports it, so the failure names the cause (ECONNREFUSED ...) the same way.
    throw new TypeError('fetch failed', { cause: error });
  }
  const header = (name: string): string | null => {
    const v = res.headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
  return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, headers: { get: header }, text: () => res.body.text(), body: res.body };
};
