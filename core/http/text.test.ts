// The undici fast path (a dispatch handler reading the whole text answer) against undici.request,
// the full path it replaces: same status, headers and text, same URL split, aborts honoured.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request, util } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestText, splitUrl } from './text.js';

let url = '';
const server = createServer((req, res) => {
  if (req.url?.startsWith('/chunks')) {
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'x-request-id': 'r1' });
    res.write('\ufeff{"a":');
    setTimeout(() => res.end('"é"}'), 5);
    return;
  }
  if (req.url?.startsWith('/slow')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    return; // never ends
  }
  let body = '';
  req.on('data', (c: Buffer) => {
    body += c.toString();
  });
  req.on('end', () => {
    res.writeHead(req.method === 'POST' ? 201 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url, body, auth: req.headers.authorization ?? null }));
  });
});
const dispatcher = new Agent();
beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await dispatcher.close();
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

const parse = util.parseHeaders as (raw: Buffer[]) => Record<string, string | string[] | undefined>;

async function both(path: string, method = 'GET', body?: string): Promise<void> {
  const headers = { authorization: 'Bearer k', ...(body ? { 'content-type': 'application/json' } : {}) };
  const fast = await requestText(dispatcher, parse, { url: `${url}${path}`, method, headers, body, signal: undefined, timeoutMs: 5_000 });
  const full = await request(`${url}${path}`, { dispatcher, method: method as 'GET', headers, body });
  const text = await full.body.text();
  expect(fast.status).toBe(full.statusCode);
  expect(fast.text).toBe(text);
  const { date: _a, ...fastHeaders } = fast.headers;
  const { date: _b, ...fullHeaders } = full.headers;
  expect(fastHeaders).toEqual(fullHeaders);
}

describe('requestText', () => {
  it('answers as undici.request does: status, headers, text', async () => {
    await both('/assistant/a?x=1&y=%20');
    await both('/assistant', 'POST', JSON.stringify({ name: 'é' }));
  });

  it('joins chunks, skips a byte order mark and keeps repeated headers', async () => {
    await both('/chunks');
    const fast = await requestText(dispatcher, parse, { url: `${url}/chunks`, method: 'GET', headers: {}, body: undefined, signal: undefined, timeoutMs: 5_000 });
    expect(JSON.parse(fast.text)).toEqual({ a: 'é' });
    expect(fast.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });

  it('rejects with the signal reason when aborted mid-body, and at once when aborted before', async () => {
    const ctl = new AbortController();
    const pending = requestText(dispatcher, parse, { url: `${url}/slow`, method: 'GET', headers: {}, body: undefined, signal: ctl.signal, timeoutMs: 5_000 });
    setTimeout(() => ctl.abort(new Error('stop')), 20);
    await expect(pending).rejects.toThrow('stop');
    const early = new AbortController();
    early.abort(new Error('early'));
    await expect(requestText(dispatcher, parse, { url: `${url}/assistant/a`, method: 'GET', headers: {}, body: undefined, signal: early.signal, timeoutMs: 5_000 })).rejects.toThrow('early');
  });

  it('times out a stalled body with undici body timeout', async () => {
    const pending = requestText(dispatcher, parse, { url: `${url}/slow`, method: 'GET', headers: {}, body: undefined, signal: undefined, timeoutMs: 100 });
    await expect(pending).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });
});

describe('splitUrl', () => {
  it.each([
    'http://127.0.0.1:3000/assistant/a?x=1',
    'https://api.vapi.ai/assistant',
    'https://api.vapi.ai',
    'https://api.vapi.ai?x=1',
    'http://localhost:80/a',
    'https://API.example.com:443/a',
    'http://user:pw@host/a',
    'http://[::1]:8080/a',
    'http://host/a#frag',
  ])('%s splits as the URL parser does', (u) => {
    const parsed = new URL(u);
    expect(splitUrl(u)).toEqual({ origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
  });
});
