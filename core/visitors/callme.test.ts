import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_ME_PATH, callMeMiddleware, phoneCallBody, type placeCall } from './callme.js';
import { startEmulator, type Emulator } from '../emulator/index.js';

const visitor = { slug: 'acme', name: 'Acme', system: 'Be Acme.', first_message: 'Hello from Acme.' };
let emulator: Emulator;
let server: Server;
let base: string;
let failNext = false;
const lines: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const place: typeof placeCall = async (target, body) => {
    if (failNext) throw new Error('platform said no');
    const { placeCall: real } = await import('./callme.js');
    return real(target, body);
  };
  const mw = callMeMiddleware({ lookup: (slug) => (slug === 'acme' ? visitor : undefined), target: { baseUrl: emulator.url, apiKey: 'k', assistantId: 'asst_1' }, log: (l) => lines.push(l), place });
  server = createServer((req, res) => mw(req, res, () => res.writeHead(418).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await emulator.close();
});

const post = (body: unknown) => fetch(`${base}${CALL_ME_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('local Call Me webhook', () => {
  it('places the call with the visitor as assistant overrides', async () => {
    const res = await post({ phone: '+14155550123', slug: 'acme' });
    expect(res.status).toBe(200);
    const { callId } = (await res.json()) as { callId: string };
    const call = (await (await fetch(`${emulator.url}/call/${callId}`, { headers: { authorization: 'Bearer k' } })).json()) as Record<string, unknown>;
    expect(call).toMatchObject({
      assistantId: 'asst_1',
      customer: { number: '+14155550123' },
      assistantOverrides: { firstMessage: 'Hello from Acme.', model: { provider: 'openai', model: 'gpt-4o-mini', maxTokens: 250, messages: [{ role: 'system', content: 'Be Acme.' }] } },
    });
    expect(lines.at(-1)).toContain(callId);
  });

  it('refuses a missing or malformed phone without placing a call', async () => {
    failNext = true;
    for (const body of [{ slug: 'acme' }, { phone: '', slug: 'acme' }, { phone: '555-0100', slug: 'acme' }]) {
      expect((await post(body)).status).toBe(400);
    }
    failNext = false;
  });

  it('answers 502 when the platform refuses the call', async () => {
    failNext = true;
    const res = await post({ phone: '+14155550123', slug: 'acme' });
    failNext = false;
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toContain('platform said no');
  });

  it('only answers POST on its own path', async () => {
    expect((await fetch(`${base}${CALL_ME_PATH}`)).status).toBe(405);
    expect((await fetch(`${base}/elsewhere`, { method: 'POST' })).status).toBe(418);
  });
});

describe('what a page on another origin can send', () => {
  let guarded: Server;
  let url: string;
  let clock = 1_000_000;
  const placed: string[] = [];
  beforeAll(async () => {
    const place: typeof placeCall = async (_target, body) => (placed.push(body.customer.number), `call_${placed.length}`);
    const mw = callMeMiddleware({ lookup: (slug) => (slug === 'acme' ? visitor : undefined), target: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }, log: () => undefined, place, now: () => clock });
    guarded = createServer((req, res) => mw(req, res, () => res.writeHead(418).end()));
    await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}${CALL_ME_PATH}`;
  });
  afterAll(() => new Promise((resolve) => guarded.close(resolve)));

  const send = (headers: Record<string, string>, body: unknown = { phone: '+14155550123', slug: 'acme' }) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const error = async (res: Response) => (await res.json()) as { ok: boolean; error: string; message: string };

  it('refuses another origin, another site, and anything but JSON, placing nothing', async () => {
    const evil = await send({ origin: 'http://127.0.0.1:1', 'content-type': 'application/json' });
    expect(evil.status).toBe(403);
    expect(await error(evil)).toMatchObject({ ok: false, error: 'forbidden-origin' });
    expect((await send({ 'sec-fetch-site': 'same-site', 'content-type': 'application/json' })).status).toBe(403);
    const text = await send({ 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect((await error(text)).message).toContain('application/json');
    expect((await send({ 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect(placed).toEqual([]);
    // The page itself: same origin (the Host it was served from), JSON.
    const own = await send({ origin: new URL(url).origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json; charset=utf-8' });
    expect(own.status).toBe(200);
    expect(placed).toHaveLength(1);
  });

  it('answers 404 for a slug with no visitor, placing nothing', async () => {
    const before = placed.length;
    const res = await send({ 'content-type': 'application/json' }, { phone: '+14155550123', slug: 'nobody' });
    expect(res.status).toBe(404);
    expect(await error(res)).toMatchObject({ error: 'unknown-visitor', message: expect.stringContaining('"nobody"') });
    expect((await send({ 'content-type': 'application/json' }, { phone: '+14155550123' })).status).toBe(404);
    expect(placed.length).toBe(before);
  });

  it('places at most 5 calls a minute per client: the 6th gets 429 with Retry-After', async () => {
    clock += 120_000;
    const before = placed.length;
    for (let i = 0; i < 5; i++) {
      expect((await send({ 'content-type': 'application/json' })).status).toBe(200);
      clock += 1_000;
    }
    const sixth = await send({ 'content-type': 'application/json' });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('55');
    expect(await error(sixth)).toMatchObject({ error: 'rate-limited', message: expect.stringContaining('55 s') });
    expect(placed.length - before).toBe(5);
    clock += 55_000;
    expect((await send({ 'content-type': 'application/json' })).status).toBe(200);
  });
});

describe('phoneCallBody', () => {
  it('leaves out overrides an unknown visitor cannot fill', () => {
    expect(phoneCallBody('+14155550123', undefined, {})).toEqual({ assistantOverrides: {}, customer: { number: '+14155550123' } });
  });
});
