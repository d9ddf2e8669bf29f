// Deliveries the emulator signs (a server naming a webhook credential) verify with the exported
// verifier; a tampered body, an old timestamp or a wrong secret do not.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../emulator/index.js';
import type { Emulator } from '../emulator/index.js';
import { signServerMessage, verifyServerMessage } from './index.js';
import type { AuthenticationPlan } from './index.js';

interface Got {
  raw: string;
  headers: IncomingHttpHeaders;
}

let emu: Emulator;
const got: Got[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    got.push({ raw: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let hookUrl = '';
const auth = { authorization: 'Bearer k', 'content-type': 'application/json' };

beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  emu = await startEmulator({ speed: 1000 });
});
afterAll(async () => {
  await emu.close();
  server.close();
});

/** Places a call whose assistant's server names a credential with this plan; returns what the server received. */
async function deliveriesWith(plan: AuthenticationPlan): Promise<Got[]> {
  const post = async (path: string, body: unknown): Promise<{ id: string }> => {
    const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: string };
  };
  const cred = await post('/credential', { provider: 'webhook', authenticationPlan: plan });
  const assistant = await post('/assistant', { name: 'Signed', firstMessage: 'Hi.', server: { url: hookUrl, credentialId: cred.id } });
  got.length = 0;
  await post('/call', { assistantId: assistant.id, customer: { number: '+15550100005' }, phoneNumberId: (await post('/phone-number', { provider: 'vapi', name: 'P' })).id });
  await emu.calls.idle();
  expect(got.length).toBeGreaterThan(2);
  return [...got];
}

describe('signed deliveries and verifyServerMessage', () => {
  it('bearer: every delivery carries the token the plan names, and verifies', async () => {
    const plan: AuthenticationPlan = { type: 'bearer', token: 'tok-123', headerName: 'X-Auth', bearerPrefixEnabled: false };
    for (const d of await deliveriesWith(plan)) {
      expect(d.headers['x-auth']).toBe('tok-123');
      expect(await verifyServerMessage({ body: d.raw, headers: d.headers, plan })).toEqual({ valid: true });
      expect(await verifyServerMessage({ body: d.raw, headers: d.headers, plan, secret: 'tok-999' })).toMatchObject({ valid: false, reason: 'wrong token in X-Auth' });
    }
  });

  it('HMAC: signature and timestamp as the plan says; a tampered body or an old timestamp fails', async () => {
    const plan: AuthenticationPlan = { type: 'hmac', secretKey: 's3cret', algorithm: 'sha256', signaturePrefix: 'sha256=', signatureHeader: 'X-Hub-Signature' };
    const received = await deliveriesWith(plan);
    for (const d of received) {
      expect(d.headers['x-hub-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(Number(d.headers['x-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
      expect(await verifyServerMessage({ body: d.raw, headers: d.headers, plan })).toEqual({ valid: true });
    }
    const d = received[0] as Got;
    const tampered = d.raw.replace('"type":"status-update"', '"type":"status-updatf"');
    expect(tampered).not.toBe(d.raw);
    expect(await verifyServerMessage({ body: tampered, headers: d.headers, plan })).toEqual({ valid: false, reason: 'signature in X-Hub-Signature does not match the body' });
    const late = await verifyServerMessage({ body: d.raw, headers: d.headers, plan, now: Number(d.headers['x-timestamp']) + 301 });
    expect(late.valid).toBe(false);
    expect((late as { reason: string }).reason).toMatch(/timestamp is 301 s away/);
    expect((await verifyServerMessage({ body: d.raw, headers: d.headers, plan, secret: 'other' })).valid).toBe(false);
    expect(await verifyServerMessage({ body: d.raw, headers: {}, plan })).toEqual({ valid: false, reason: 'missing X-Hub-Signature header' });
  });

  it('HMAC with base64 encoding, a base64 secret, a message id and a custom payload format', async () => {
    const plan: AuthenticationPlan = {
      type: 'hmac',
      secretKey: Buffer.from('raw-key').toString('base64'),
      secretIsBase64: true,
      algorithm: 'sha512',
      signatureEncoding: 'base64',
      messageIdHeader: 'svix-id',
      payloadFormat: '{svix-id}.{timestamp}.{body}',
    };
    const headers = await signServerMessage('{"message":{}}', plan, { timestamp: 1_700_000_000, messageId: 'msg_1' });
    const { createHmac } = await import('node:crypto');
    const want = createHmac('sha512', 'raw-key').update('msg_1.1700000000.{"message":{}}').digest('base64');
    expect(headers).toEqual({ 'x-signature': want, 'x-timestamp': '1700000000', 'svix-id': 'msg_1' });
    expect(await verifyServerMessage({ body: '{"message":{}}', headers, plan, now: 1_700_000_010 })).toEqual({ valid: true });
    expect((await verifyServerMessage({ body: '{"message":{}}', headers: { ...headers, 'svix-id': 'msg_2' }, plan, now: 1_700_000_010 })).valid).toBe(false);
  });
});
