// What the emulator adds for the inspector page: its files (only when a folder is given, never a
// file outside it), the record of REST requests with masked bodies and the caller's message,
// replaying a delivery, ending a running call, and partial transcript lines.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Delivery, Emulator, RecordEvent } from '../index.js';
import { MASK, maskSecrets } from '../store/mask.js';
import { startHook } from '../calls/testing.js';
import type { Hook } from '../calls/testing.js';
import { until } from '../calls/testing.js';

const H = { authorization: 'Bearer k', 'content-type': 'application/json' };
let dir: string;
let emu: Emulator;
let hook: Hook;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voice-inspector-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>inspector</title>');
  writeFileSync(join(tmpdir(), 'voice-inspector-outside.txt'), 'outside');
  hook = await startHook();
  emu = await startEmulator({ inspectorDir: dir, speed: 1 });
});

afterAll(async () => {
  await emu.close();
  await hook.close();
  rmSync(dir, { recursive: true, force: true });
});

const req = (path: string, init: RequestInit = {}): Promise<Response> => fetch(`${emu.url}${path}`, { ...init, headers: { ...H, ...(init.headers as Record<string, string>) } });

describe('the inspector files', () => {
  it('are served under /__voice/inspector/ with a strict policy, and nothing outside the folder', async () => {
    const bare = await fetch(`${emu.url}/__voice/inspector`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/__voice/inspector/');
    const page = await fetch(`${emu.url}/__voice/inspector/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>inspector</title>');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await fetch(`${emu.url}/__voice/inspector/..%2fvoice-inspector-outside.txt`)).status).toBe(404);
    expect((await fetch(`${emu.url}/__voice/inspector/missing.js`)).status).toBe(404);
  });

  it('are not served without a folder (--no-inspector), and the info endpoint says so', async () => {
    const plain = await startEmulator({ speed: 5 });
    try {
      expect((await fetch(`${plain.url}/__voice/inspector/`)).status).toBe(404);
      expect(await (await fetch(`${plain.url}/__voice/info`)).json()).toEqual({ speed: 5, apiKeyRequired: false, inspector: false, model: false });
    } finally {
      await plain.close();
    }
  });

  it('refuse a page on another origin, like every emulator endpoint', async () => {
    const res = await req('/__voice/deliveries/d1/replay', { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
  });
});

describe('the record, for the inspector', () => {
  it('keeps a refused request with the caller, the message and masked bodies', async () => {
    const res = await req('/assistant', { method: 'POST', headers: { 'user-agent': 'probe/2' }, body: JSON.stringify({ name: 'x', apiKey: 'sk-live-123', colour: 'red' }) });
    expect(res.status).toBe(400);
    const event = emu.record
      .list()
      .filter((e): e is Extract<RecordEvent, { kind: 'request' }> => e.kind === 'request')
      .find((e) => e.userAgent === 'probe/2');
    expect(event).toMatchObject({ method: 'POST', path: '/assistant', status: 400 });
    expect(event?.message).toContain('property colour should not exist');
    const detail = (await (await req(`/__voice/requests/${event?.seq}`)).json()) as { requestBody: Record<string, unknown>; responseBody: { statusCode: number } };
    expect(detail.requestBody).toEqual({ name: 'x', apiKey: MASK, colour: 'red' });
    expect(detail.responseBody.statusCode).toBe(400);
    expect(JSON.stringify(detail)).not.toContain('sk-live-123');
    expect((await req('/__voice/requests/999999')).status).toBe(404);
  });

  it('replays a delivery to the same server and records the new answer', async () => {
    const a = (await (
      await req('/assistant', { method: 'POST', body: JSON.stringify({ name: 'R', firstMessage: 'Hi.', server: { url: `${hook.url}/hook`, headers: { 'x-vapi-secret': 'shh' } } }) })
    ).json()) as { id: string };
    const call = (await (await req('/call', { method: 'POST', body: JSON.stringify({ assistantId: a.id, customer: { number: '+15550100002' } }) })).json()) as { id: string };
    const first = await until(() => emu.record.deliveries(call.id).find((d) => d.type === 'status-update'));
    // The call goes on delivering meanwhile: what counts is this message, sent a second time.
    const sent = JSON.stringify(first.request.body.message);
    const copies = (): number => hook.received.filter((r) => JSON.stringify(r.message) === sent).length;
    await until(() => copies() === 1 || undefined);
    const res = await req(`/__voice/deliveries/${first.id}/replay`, { method: 'POST' });
    expect(res.status).toBe(201);
    const again = (await res.json()) as Delivery;
    expect(again).toMatchObject({ callId: call.id, type: 'status-update', url: `${hook.url}/hook`, status: 200, replayOf: first.id });
    expect(again.id).not.toBe(first.id);
    expect(copies()).toBe(2);
    expect(hook.received.filter((r) => JSON.stringify(r.message) === sent).at(-1)?.headers['x-vapi-secret']).toBe('shh');
    expect(emu.record.deliveries(call.id).some((d) => d.id === again.id)).toBe(true);
    expect((await req('/__voice/deliveries/nope/replay', { method: 'POST' })).status).toBe(404);
    const whole = (await (await req(`/__voice/deliveries/${first.id}`)).json()) as Delivery;
    // Whole, but with its secrets masked: the record keeps them (the replay above sent 'shh').
    expect(whole).toEqual(maskSecrets(first));
    expect(whole.request.headers['x-vapi-secret']).toBe(MASK);
    expect((await req('/__voice/deliveries/nope')).status).toBe(404);
    expect((await req(`/__voice/deliveries/${first.id}/replay`)).status).toBe(405);
  });

  it('streams deliveries without their headers and bodies with lite=1', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${emu.url}/__voice/events?since=0&lite=1`, { signal: ctrl.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('event: delivery')) text += new TextDecoder().decode((await reader.read()).value);
    ctrl.abort();
    const line = text.split('\n').find((l) => l.startsWith('data: ') && l.includes('"kind":"delivery"')) as string;
    const event = JSON.parse(line.slice(6)) as { delivery: Delivery & { stripped?: boolean } };
    expect(event.delivery).toMatchObject({ type: 'status-update', stripped: true, request: { headers: {}, body: { message: { type: 'status-update' } } } });
    expect(event.delivery.answer).toBeUndefined();
    expect(text).not.toContain('shh');
  });

  it('ends a running call as the customer hanging up, once; and records partial lines before final ones', async () => {
    const a = (await (await req('/assistant', { method: 'POST', body: JSON.stringify({ name: 'E', firstMessage: 'Hello there, this is a long first message.' }) })).json()) as { id: string };
    const call = (await (await req('/call', { method: 'POST', body: JSON.stringify({ assistantId: a.id, customer: { number: '+14155550100' } }) })).json()) as { id: string };
    await until(() => emu.record.list({ callId: call.id }).find((e) => e.kind === 'call.transcript'));
    const end = await req(`/__voice/calls/${call.id}/end`, { method: 'POST', body: JSON.stringify({ by: 'customer' }) });
    expect(end.status).toBe(200);
    await emu.calls.idle();
    const ended = (await (await req(`/call/${call.id}`)).json()) as { status: string; endedReason: string };
    expect(ended).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    expect((await req(`/__voice/calls/${call.id}/end`, { method: 'POST', body: '{}' })).status).toBe(409);
    expect((await req('/__voice/calls/nope/end', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await req(`/__voice/calls/${call.id}/end`, { method: 'POST', body: '{"by":"someone"}' })).status).toBe(400);
    const lines = emu.record.list({ callId: call.id }).filter((e) => e.kind === 'call.transcript');
    expect(lines[0]).toMatchObject({ role: 'assistant', partial: true, text: 'Hello there, this is' });
  });
});
