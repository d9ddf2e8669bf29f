import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_ME_PATH, callMeMiddleware, phoneCallBody, type placeCall } from './callme.js';
import { startEmulator, type Emulator } from './index.js';

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

describe('phoneCallBody', () => {
  it('leaves out overrides an unknown visitor cannot fill', () => {
    expect(phoneCallBody('+14155550123', undefined, {})).toEqual({ assistantOverrides: {}, customer: { number: '+14155550123' } });
  });
});
