// Retries (408, 429, 5xx, connection resets; idempotent methods unless opted in), Retry-After,
// timeouts and aborts, on every transport. Back-off delays are shrunk so the suite stays fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, ConnectionError, InternalServerError, RateLimitError, TimeoutError } from './index.js';
import { TRANSPORTS, clientOn, startServer } from './node-testing.js';
import type { Handler, TestServer } from './node-testing.js';
import { backoffMs, retryAfterMs } from './send.js';

let server: TestServer;
let handler: Handler = () => ({ body: {} });
beforeAll(async () => {
  server = await startServer((rec, res, raw) => handler(rec, res, raw));
});
afterAll(() => server.close());

/** Answers the queued replies in order, then 200 `{ ok: true }`. */
function script(...steps: Array<'reset' | 'hang' | { status: number; headers?: Record<string, string> }>): () => number {
  let n = 0;
  handler = (_rec, res) => {
    const step = steps[n++];
    if (step === 'reset') {
      res.socket?.destroy();
      return undefined;
    }
    if (step === 'hang') return undefined;
    if (step) return { status: step.status, headers: step.headers, body: { message: `step ${n}` } };
    return { body: { ok: true, attempt: n } };
  };
  return () => n;
}

describe.each(TRANSPORTS)('retries over %s', (kind) => {
  const client = (extra: Record<string, unknown> = {}): ReturnType<typeof clientOn> => clientOn(kind, { apiKey: 'k', baseUrl: server.url, retryDelayMs: 1, ...extra });

  it('waits as Retry-After says (seconds) after a 429, then succeeds', async () => {
    const count = script({ status: 429, headers: { 'retry-after': '0' } });
    // A huge back-off proves the header, not the back-off, set the wait.
    await expect(client({ retryDelayMs: 600_000 }).assistant.get('a')).resolves.toEqual({ ok: true, attempt: 2 });
    expect(count()).toBe(2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const count = script({ status: 429, headers: { 'retry-after': new Date(Date.now() - 1000).toUTCString() } });
    await expect(client({ retryDelayMs: 600_000 }).assistant.list()).resolves.toEqual({ ok: true, attempt: 2 });
    expect(count()).toBe(2);
  });

  it('retries a 503 and returns the later success', async () => {
    const count = script({ status: 503 }, { status: 500 });
    await expect(client().assistant.get('a')).resolves.toEqual({ ok: true, attempt: 3 });
    expect(count()).toBe(3);
  });

  it('retries 408 on PUT and DELETE', async () => {
    script({ status: 408 });
    await expect(client().assistant.replace('a', { name: 'n' })).resolves.toEqual({ ok: true, attempt: 2 });
    script({ status: 408 });
    await expect(client().assistant.delete('a')).resolves.toEqual({ ok: true, attempt: 2 });
  });

  it('gives up after maxRetries with the last error', async () => {
    const count = script({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    await expect(client({ maxRetries: 2 }).assistant.get('a')).rejects.toBeInstanceOf(InternalServerError);
    expect(count()).toBe(3);
    const again = script({ status: 429, headers: { 'retry-after': '0' } });
    await expect(client().assistant.get('a', { maxRetries: 0 })).rejects.toBeInstanceOf(RateLimitError);
    expect(again()).toBe(1);
  });

  it('does not wait for a Retry-After beyond a minute', async () => {
    const count = script({ status: 429, headers: { 'retry-after': '3600' } });
    await expect(client().assistant.get('a')).rejects.toBeInstanceOf(RateLimitError);
    expect(count()).toBe(1);
  });

  it('retries a GET after the server resets the connection', async () => {
    const count = script('reset');
    await expect(client().assistant.get('a')).resolves.toEqual({ ok: true, attempt: 2 });
    expect(count()).toBe(2);
  });

  it('reports a reset as ConnectionError when it cannot retry', async () => {
    script('reset');
    await expect(client({ maxRetries: 0 }).assistant.get('a')).rejects.toBeInstanceOf(ConnectionError);
  });

  it('does not retry a POST or PATCH by default', async () => {
    let count = script({ status: 503 });
    await expect(client().assistant.create({ name: 'x' })).rejects.toBeInstanceOf(InternalServerError);
    expect(count()).toBe(1);
    count = script('reset');
    await expect(client().assistant.create({ name: 'x' })).rejects.toBeInstanceOf(ConnectionError);
    expect(count()).toBe(1);
    count = script({ status: 500 });
    await expect(client().assistant.update('a', { name: 'x' })).rejects.toBeInstanceOf(InternalServerError);
    expect(count()).toBe(1);
  });

  it('retries a POST when the caller opts in', async () => {
    const count = script({ status: 503 }, 'reset');
    await expect(client().assistant.create({ name: 'x' }, { retryNonIdempotent: true })).resolves.toEqual({ ok: true, attempt: 3 });
    expect(count()).toBe(3);
    const sent = server.requests.slice(-3).map((r) => JSON.parse(r.body.toString('utf8')) as unknown);
    expect(sent).toEqual([{ name: 'x' }, { name: 'x' }, { name: 'x' }]);
  });

  it('times out when no answer comes', async () => {
    script('hang');
    const error = await client({ maxRetries: 0, timeoutMs: 150 })
      .assistant.get('a')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/timed out after 150 ms: GET http:\/\/127\.0\.0\.1:\d+\/assistant\/a/);
  });

  it('times out when the body stalls after the headers', async () => {
    handler = (_rec, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
      return undefined;
    };
    await expect(client({ maxRetries: 0 }).assistant.get('a', { timeoutMs: 150 })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('aborts through the caller signal while waiting for the answer', async () => {
    const ctl = new AbortController();
    handler = () => {
      ctl.abort();
      return undefined;
    };
    await expect(client().assistant.get('a', { signal: ctl.signal })).rejects.toBeInstanceOf(AbortError);
  });

  it('sends nothing with an already aborted signal', async () => {
    const before = server.requests.length;
    await expect(client().assistant.get('a', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(server.requests.length).toBe(before);
  });

  it('aborts during the back-off wait', async () => {
    const ctl = new AbortController();
    let n = 0;
    handler = () => {
      n += 1;
      setTimeout(() => ctl.abort(), 20);
      return { status: 503, body: {} };
    };
    await expect(client({ retryDelayMs: 600_000 }).assistant.get('a', { signal: ctl.signal })).rejects.toBeInstanceOf(AbortError);
    expect(n).toBe(1);
  });

  it('reports a refused connection as ConnectionError', async () => {
    const dead = await startServer();
    await dead.close();
    const c = clientOn(kind, { baseUrl: dead.url, maxRetries: 1, retryDelayMs: 1 });
    await expect(c.assistant.list()).rejects.toThrow(ConnectionError);
  });
});

describe('back-off arithmetic', () => {
  it('reads Retry-After as seconds or a date, ignoring junk', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('0.5')).toBe(500);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it('doubles from the base with up to 25% jitter, capped at 8 s', () => {
    for (let n = 0; n < 4; n++) {
      const d = backoffMs(n, 500);
      expect(d).toBeLessThanOrEqual(500 * 2 ** n);
      expect(d).toBeGreaterThanOrEqual(0.75 * 500 * 2 ** n);
    }
    expect(backoffMs(10, 500)).toBeLessThanOrEqual(8000);
  });
});
