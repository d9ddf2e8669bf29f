// Bad input gets its status and a clear message, and the server keeps serving afterwards.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

const H = { authorization: 'Bearer k', 'content-type': 'application/json' };

interface Case {
  name: string;
  method: string;
  path: string;
  body?: string;
  status: number;
  message: RegExp;
}

const cases: Case[] = [
  { name: 'malformed JSON', method: 'POST', path: '/assistant', body: '{"name": ', status: 400, message: /Malformed JSON/ },
  { name: 'JSON that is not an object', method: 'POST', path: '/assistant', body: '[1,2]', status: 400, message: /must be a JSON object/ },
  { name: 'phone number without provider', method: 'POST', path: '/phone-number', body: '{"number":"+1555"}', status: 400, message: /provider should not be empty/ },
  { name: 'phone number with an unknown provider', method: 'POST', path: '/phone-number', body: '{"provider":"acme"}', status: 400, message: /provider must be one of the following values/ },
  { name: 'tool without type', method: 'POST', path: '/tool', body: '{}', status: 400, message: /type should not be empty/ },
  { name: 'tool with a numeric type', method: 'POST', path: '/tool', body: '{"type":5}', status: 400, message: /type must be a string/ },
  { name: 'squad without members', method: 'POST', path: '/squad', body: '{"name":"x"}', status: 400, message: /members should not be empty/ },
  { name: 'squad with members not an array', method: 'POST', path: '/squad', body: '{"members":"a"}', status: 400, message: /members must be an array/ },
  { name: 'patch with a wrong type', method: 'PATCH', path: '/assistant/%ID%', body: '{"name":42}', status: 400, message: /name must be a string/ },
  { name: 'oversize body', method: 'POST', path: '/assistant', body: ' '.repeat(10 * 1024 * 1024 + 10), status: 413, message: /larger than the limit of 10 MB/ },
  { name: 'limit not a number', method: 'GET', path: '/assistant?limit=ten', status: 400, message: /limit must be an integer/ },
  { name: 'limit over 1000', method: 'GET', path: '/assistant?limit=1001', status: 400, message: /limit must not be greater than 1000/ },
  { name: 'negative limit', method: 'GET', path: '/assistant?limit=-1', status: 400, message: /limit must be an integer/ },
  { name: 'bad date filter', method: 'GET', path: '/assistant?createdAtGt=yesterday', status: 400, message: /createdAtGt must be a valid ISO 8601 date/ },
  { name: 'bad page', method: 'GET', path: '/session?page=0', status: 400, message: /page must not be less than 1/ },
  { name: 'bad sortOrder', method: 'GET', path: '/session?sortOrder=UP', status: 400, message: /sortOrder must be one of/ },
  { name: 'unknown route', method: 'GET', path: '/no/such/thing', status: 404, message: /Cannot GET \/no\/such\/thing/ },
  { name: 'wrong method', method: 'PUT', path: '/tool/abc', status: 404, message: /Cannot PUT \/tool\/abc/ },
  { name: 'bad percent-encoding', method: 'GET', path: '/assistant/%E0%A4%A', status: 400, message: /Malformed URL/ },
  { name: 'upload without multipart', method: 'POST', path: '/file', body: '{"file":"x"}', status: 400, message: /multipart\/form-data/ },
  {
    name: 'analytics with a bad operation',
    method: 'POST',
    path: '/analytics',
    body: '{"queries":[{"table":"call","name":"q","operations":[{"operation":"median","column":"cost"}]}]}',
    status: 400,
    message: /operation must be one of/,
  },
];

describe('bad input', () => {
  it.each(cases)('$name → $status', async (c) => {
    const id = (await (await fetch(`${emu.url}/assistant`, { method: 'POST', headers: H, body: '{}' })).json()).id as string;
    const res = await fetch(`${emu.url}${c.path.replace('%ID%', id)}`, { method: c.method, headers: H, body: c.body });
    expect(res.status).toBe(c.status);
    const body = await res.json();
    expect(body.statusCode).toBe(c.status);
    expect(typeof body.error).toBe('string');
    expect([body.message].flat().join('; ')).toMatch(c.message);
    // Still serving.
    expect((await fetch(`${emu.url}/assistant?limit=1`, { headers: H })).status).toBe(200);
  });

  it('reports every validation problem at once as an array', async () => {
    const res = await fetch(`${emu.url}/workflow`, { method: 'POST', headers: H, body: '{"name":1}' });
    const body = await res.json();
    expect([...body.message].sort()).toEqual(['edges should not be empty', 'name must be a string', 'nodes should not be empty']);
  });

  it('survives a chunked oversize body and a garbage request line', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${emu.url}/assistant`, { method: 'POST', headers: { ...H, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024, 32);
      for (let i = 0; i < 11; i++) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
    const net = await import('node:net');
    await new Promise<void>((resolve) => {
      const sock = net.connect(emu.port, '127.0.0.1', () => sock.end('NOT HTTP AT ALL\r\n\r\n'));
      sock.on('close', () => resolve());
      sock.on('error', () => resolve());
      sock.resume();
    });
    expect((await fetch(`${emu.url}/assistant?limit=1`, { headers: H })).status).toBe(200);
  });
});

describe('hostile fields', () => {
  it('stores a __proto__ key as nothing and keeps serving', async () => {
    const res = await fetch(`${emu.url}/assistant`, { method: 'POST', headers: H, body: '{"name":"p","__proto__":{"polluted":true}}' });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
