// Posts a server message whose answer is audio, not JSON (a custom voice's `voice-request`): the
// answer's bytes are kept as they stream in, and the time to the first byte is measured here, at
// the socket, so a voice server's latency is what the server did and not when a busy event loop got
// round to reading it. Node only, on the pool the other deliveries share.
import { postPool } from '../http/undici.js';
import { connectionReason } from './post.js';

/** What a server sent back for one audio request. */
export interface AudioAnswer {
  /** HTTP status, absent when no answer came. */
  status?: number;
  /** Milliseconds from sending to the first byte of the answer's body (absent when none came). */
  firstByteMs?: number;
  /** Milliseconds from sending to the end of the answer (or the failure). */
  ms: number;
  /** The answer's content type, when it named one. */
  contentType?: string;
  /** The body as received. */
  bytes: Buffer;
  /** Why there is no whole answer: `timeout` (before the first byte or between two), `connection`. */
  failure?: 'timeout' | 'connection';
  reason?: string;
}

/** How to post: headers, the longest wait for the first byte (and between two), an abort. */
export interface AudioPostOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called when the first byte of the body arrives. */
  onFirstByte?: () => void;
}

/** Sends `body` (JSON text) to `url` and reads the whole binary answer. Never throws. */
export async function postForAudio(url: string, body: string, opts: AudioPostOptions): Promise<AudioAnswer> {
  let started = performance.now();
  const elapsed = (): number => performance.now() - started;
  const chunks: Buffer[] = [];
  let firstByteMs: number | undefined;
  let status: number | undefined;
  try {
    const { request, dispatcher } = await postPool();
    // Timed from here: loading the HTTP client on a process's first post is not the server's latency.
    started = performance.now();
    const res = await request(url, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    status = res.statusCode;
    const type = res.headers['content-type'];
    const contentType = Array.isArray(type) ? type.join(', ') : type;
    for await (const chunk of res.body) {
      if (firstByteMs === undefined) {
        firstByteMs = elapsed();
        opts.onFirstByte?.();
      }
      chunks.push(chunk as Buffer);
    }
    return { status, ms: elapsed(), bytes: Buffer.concat(chunks), ...(contentType ? { contentType } : {}), ...(firstByteMs !== undefined ? { firstByteMs } : {}) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const partial = { ms: elapsed(), bytes: Buffer.concat(chunks), ...(status !== undefined ? { status } : {}), ...(firstByteMs !== undefined ? { firstByteMs } : {}) };
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return { ...partial, failure: 'timeout', reason: `no audio within ${opts.timeoutMs / 1000} s` };
    return { ...partial, failure: 'connection', reason: connectionReason(error) };
  }
}
