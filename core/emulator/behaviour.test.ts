// The emulator's server logic over raw HTTP: stored objects, lists, nesting, actions, auth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webhook from '../../fixtures/bodies/credential-webhook.json' with { type: 'json' };
import { startEmulator } from './index.js';
import type { Emulator } from './index.js';

let emu: Emulator;
const auth = { authorization: 'Bearer test-key', 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = auth) {
  const res = await fetch(`${emu.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

describe('stored objects', () => {
  it('creates with id, orgId and timestamps; gets; merges; replaces; deletes once', async () => {
    const created = await call('POST', '/assistant', { name: 'A', model: { provider: 'openai', model: 'gpt-4o', temperature: 0.2 } });
    expect(created.status).toBe(201);
    const a = created.body;
    expect(a.id).toMatch(UUID);
    expect(a.orgId).toMatch(UUID);
    expect(Date.parse(a.createdAt)).not.toBeNaN();
    expect(a.updatedAt).toBe(a.createdAt);
    expect((await call('GET', `/assistant/${a.id}`)).body).toEqual(a);

    const hijack = await call('PATCH', `/assistant/${a.id}`, { id: 'hijack' });
    expect(hijack.status).toBe(400);
    expect(hijack.body.message).toEqual(['property id should not exist']);
    const patched = await call('PATCH', `/assistant/${a.id}`, { model: { provider: 'openai', model: 'gpt-4o', temperature: 0.7 } });
    expect(patched.status).toBe(200);
    expect(patched.body.id).toBe(a.id);
    expect(patched.body.model).toEqual({ provider: 'openai', model: 'gpt-4o', temperature: 0.7 });
    expect(patched.body.name).toBe('A');

    const replaced = await call('PUT', `/assistant/${a.id}`, { name: 'B' });
    expect(replaced.body).toMatchObject({ id: a.id, orgId: a.orgId, createdAt: a.createdAt, name: 'B' });
    expect(replaced.body.model).toBeUndefined();

    const versions = await call('GET', `/assistant/${a.id}/version`);
    expect(versions.body.map((v: { name: string; version: number }) => [v.version, v.name])).toEqual([
      [3, 'B'],
      [2, 'A'],
      [1, 'A'],
    ]);

    const deleted = await call('DELETE', `/assistant/${a.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.name).toBe('B');
    expect((await call('DELETE', `/assistant/${a.id}`)).status).toBe(404);
    const missing = await call('GET', `/assistant/${a.id}`);
    expect(missing.body).toEqual({ statusCode: 404, message: 'Assistant not found', error: 'Not Found' });
  });

  it('lists plain lists newest first with limit and time filters', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call('POST', '/tool', { type: 'function', function: { name: `t${i}` } })).body.id);
    const all = await call('GET', '/tool?limit=1000');
    expect(all.body.map((t: { id: string }) => t.id).slice(0, 5)).toEqual([...ids].reverse());
    const two = await call('GET', '/tool?limit=2');
    expect(two.body).toHaveLength(2);
    const third = (await call('GET', `/tool/${ids[2]}`)).body;
    const older = await call('GET', `/tool?createdAtLt=${encodeURIComponent(third.createdAt)}`);
    expect(older.body.map((t: { id: string }) => t.id)).toEqual([ids[1], ids[0]]);
    const newer = await call('GET', `/tool?createdAtGe=${encodeURIComponent(third.createdAt)}`);
    expect(newer.body.map((t: { id: string }) => t.id)).toEqual([ids[4], ids[3], ids[2]]);
  });

  it('applies resource filters (call assistantId, squad idAny, file purpose)', async () => {
    const s1 = (await call('POST', '/squad', { members: [{ assistantId: 'x' }] })).body;
    const s2 = (await call('POST', '/squad', { members: [{ assistantId: 'y' }] })).body;
    await call('POST', '/squad', { members: [{ assistantId: 'z' }] });
    const some = await call('GET', `/squad?idAny=${s1.id}&idAny=${s2.id}`);
    expect(some.body.map((s: { id: string }) => s.id).sort()).toEqual([s1.id, s2.id].sort());
    await call('POST', '/call', { assistantId: 'asst-1', customer: { number: '+15550001' } });
    await call('POST', '/call', { assistantId: 'asst-2', customer: { number: '+15550002' } });
    const calls = await call('GET', '/call?assistantId=asst-2');
    expect(calls.body).toHaveLength(1);
    expect(calls.body[0].customer.number).toBe('+15550002');
  });

  it('pages paginated lists with metadata', async () => {
    for (let i = 0; i < 5; i++) await call('POST', '/session', { name: `s${i}` });
    const page = await call('GET', '/session?limit=2&page=2');
    expect(page.body.metadata).toEqual({ itemsPerPage: 2, totalItems: 5, currentPage: 2, totalPages: 3, hasNextPage: true, sortOrder: 'DESC' });
    expect(page.body.results.map((s: { name: string }) => s.name)).toEqual(['s2', 's1']);
    const asc = await call('GET', '/session?limit=2&sortOrder=ASC&page=3');
    expect(asc.body.results.map((s: { name: string }) => s.name)).toEqual(['s4']);
    expect(asc.body.metadata.hasNextPage).toBe(false);
    expect((await call('GET', '/v2/assistant')).body).toHaveProperty('metadata.currentPage', 1);
  });
});

describe('nested resources', () => {
  it('scopes tests and runs to their suite; a missing suite is 404; deleting the suite removes them', async () => {
    const suite = (await call('POST', '/test-suite', { name: 'S' })).body;
    const other = (await call('POST', '/test-suite', { name: 'T' })).body;
    const test = await call('POST', `/test-suite/${suite.id}/test`, { type: 'chat', script: 'Say hi', scorers: [{ type: 'ai', rubric: 'It says hi' }] });
    expect(test.status).toBe(201);
    expect(test.body.testSuiteId).toBe(suite.id);
    expect((await call('GET', `/test-suite/${suite.id}/test`)).body.results).toHaveLength(1);
    expect((await call('GET', `/test-suite/${other.id}/test`)).body.results).toHaveLength(0);
    expect((await call('GET', `/test-suite/${other.id}/test/${test.body.id}`)).status).toBe(404);
    const missing = await call('GET', '/test-suite/nope/run');
    expect(missing.body).toEqual({ statusCode: 404, message: 'Test suite not found', error: 'Not Found' });
    const run = await call('POST', `/test-suite/${suite.id}/run`, {});
    expect(run.body).toMatchObject({ status: 'queued', testSuiteId: suite.id });
    await call('DELETE', `/test-suite/${suite.id}`);
    expect((await call('GET', `/test-suite/${suite.id}/run/${run.body.id}`)).status).toBe(404);
  });

  it('changes org members with invite, role, member leave and leave', async () => {
    const org = (await call('POST', '/org', { name: 'Acme' })).body;
    expect(org.orgId).toBeUndefined();
    const invited = await call('POST', `/org/${org.id}/invite`, { emails: ['a@x.io', 'b@x.io'], role: 'editor' });
    expect(invited.status).toBe(201);
    let users = (await call('GET', `/org/${org.id}/user`)).body;
    expect(users.map((u: { email: string }) => u.email).sort()).toEqual(['a@x.io', 'b@x.io', 'you@example.com']);
    const a = users.find((u: { email: string }) => u.email === 'a@x.io');
    expect((await call('PATCH', `/org/${org.id}/role`, { userId: a.id, role: 'admin' })).body.role).toBe('admin');
    expect((await call('DELETE', `/org/${org.id}/member/${a.id}/leave`)).status).toBe(200);
    expect((await call('DELETE', `/org/${org.id}/leave`)).status).toBe(200);
    users = (await call('GET', `/org/${org.id}/user`)).body;
    expect(users.map((u: { email: string }) => u.email)).toEqual(['b@x.io']);
    expect((await call('GET', '/org')).body.map((o: { id: string }) => o.id)).not.toContain(org.id);
    const token = await call('GET', `/org/${org.id}/auth`);
    expect(token.body.token.split('.')).toHaveLength(3);
    expect((await call('GET', '/org/nope/user')).status).toBe(404);
  });
});

describe('actions', () => {
  it('places outbound phone calls and web calls with a room URL', async () => {
    const phone = await call('POST', '/call/phone', { assistantId: 'a', customer: { number: '+15551234567' } });
    expect(phone.body).toMatchObject({ type: 'outboundPhoneCall', status: 'queued', customer: { number: '+15551234567' } });
    expect((await call('POST', '/call', { assistantId: 'a' })).status).toBe(400);
    const asst = (await call('POST', '/assistant', { name: 'V', voice: { provider: 'tavus', voiceId: 'r52da2535a' }, artifactPlan: { videoRecordingEnabled: true } })).body;
    const web = await call('POST', '/call/web', { assistantId: asst.id });
    expect(web.status).toBe(201);
    expect(web.body.type).toBe('webCall');
    // The browser joins the emulator's own call (voice/webcall's local transport).
    expect(web.body.webCallUrl).toBe(`${emu.url}/__voice/webcall/${web.body.id}`);
    expect(web.body.assistant.voice.provider).toBe('tavus');
    expect(web.body.artifactPlan.videoRecordingEnabled).toBe(true);
    const bad = await call('POST', '/call/web', {});
    expect(bad.body.message).toEqual(['Assistant or Squad or Workflow must be provided.']);
    const logs = await call('GET', `/log?callId=${phone.body.id}`);
    expect(logs.body.results[0]).toMatchObject({ callId: phone.body.id, type: 'Call' });
  });

  it('answers chats with the input and a reply, and continues a previous chat', async () => {
    const first = (await call('POST', '/chat', { input: 'Hello' })).body;
    expect(first.output[0]).toEqual({ role: 'assistant', content: expect.stringContaining('Hello') });
    const next = (await call('POST', '/chat', { input: 'Again', previousChatId: first.id })).body;
    expect(next.messages.map((m: { content: string }) => m.content).slice(0, 3)).toEqual(['Hello', first.output[0].content, 'Again']);
    const resp = (await call('POST', '/chat/responses', { input: 'Yo', stream: false })).body;
    expect(resp).toMatchObject({ object: 'response', status: 'completed' });
    expect(resp.output[0].content[0].text).toContain('Yo');
  });

  it('computes analytics over stored calls, grouped', async () => {
    const res = await call('POST', '/analytics', {
      queries: [
        {
          table: 'call',
          name: 'by type',
          groupBy: ['type'],
          operations: [
            { operation: 'count', column: 'id' },
            { operation: 'sum', column: 'cost', alias: 'spent' },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    const calls = (await call('GET', '/call?limit=1000')).body as Array<{ type: string }>;
    const rows = res.body[0].result as Array<{ type: string; countId: number; spent: number }>;
    for (const row of rows) expect(row.countId).toBe(calls.filter((c) => c.type === row.type).length);
    expect(rows.reduce((n, r) => n + r.countId, 0)).toBe(calls.length);
  });

  it('stores uploads with name, size and content type', async () => {
    const form = new FormData();
    form.append('purpose', 'knowledge-base-v2');
    form.append('file', new Blob(['hello world'], { type: 'text/plain' }), 'faq.txt');
    const res = await fetch(`${emu.url}/file`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: form });
    expect(res.status).toBe(201);
    const file = await res.json();
    expect(file).toMatchObject({ name: 'faq.txt', originalName: 'faq.txt', bytes: 11, mimetype: 'text/plain', purpose: 'knowledge-base-v2', status: 'done' });
    expect((await call('GET', '/file?purpose=knowledge-base-v2')).body.map((f: { id: string }) => f.id)).toContain(file.id);
  });

  it('answers the voice library and provider endpoints from sample data', async () => {
    const voices = (await call('GET', '/voice-library/11labs?gender=female')).body;
    expect(voices.length).toBeGreaterThan(0);
    expect(voices.every((v: { provider: string; gender: string }) => v.provider === '11labs' && v.gender === 'female')).toBe(true);
    expect((await call('GET', '/voice-library/11labs/accents')).body.map((v: { accent: string }) => v.accent)).toContain('british');
    expect((await call('GET', '/11labs/voice/search?name=rach')).body[0]).toMatchObject({ name: 'Rachel', voiceId: expect.any(String) });
    expect((await call('GET', '/gohighlevel/workflows?locationId=loc_acme_east')).body.workflows).toHaveLength(1);
    expect((await call('GET', '/nowhere/locations')).status).toBe(404);
  });

  it('stores support tickets and exports calls as CSV', async () => {
    const ticket = await call('POST', '/support/ticket', { category: 'bug-report', subject: 'S', message: 'Calls drop after a minute' });
    expect(ticket.status).toBe(201);
    expect(ticket.body.id).toMatch(UUID);
    const csv = await fetch(`${emu.url}/v2/call/export?columns=id,type`, { headers: auth });
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect((await csv.text()).split('\r\n')[0]).toBe('id,type');
  });
});

describe('auth', () => {
  it('needs a bearer key on secured operations but not on the credential webhook', async () => {
    const none = await call('GET', '/assistant', undefined, {});
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('Unauthorized');
    expect((await call('GET', '/assistant', undefined, { authorization: 'Basic abc' })).status).toBe(401);
    expect((await call('POST', '/credential/webhook', webhook, { 'content-type': 'application/json' })).status).toBe(201);
  });

  it('accepts only the configured key when one is set', async () => {
    const strict = await startEmulator({ apiKey: 'sekret' });
    try {
      const wrong = await fetch(`${strict.url}/assistant`, { headers: { authorization: 'Bearer other' } });
      expect(wrong.status).toBe(401);
      const right = await fetch(`${strict.url}/assistant`, { headers: { authorization: 'Bearer sekret' } });
      expect(right.status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('answers CORS for pages on loopback origins only, and for the public-key operations from any origin', async () => {
    const preflight = (path: string, origin: string, method = 'GET') =>
      fetch(`${emu.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization' } });
    for (const origin of ['http://127.0.0.1:5173', 'http://localhost:3000', 'http://[::1]:8080', 'https://app.localhost']) {
      const res = await preflight('/assistant', origin);
      expect(res.status, origin).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    }
    const foreign = await preflight('/assistant', 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // A simple request the browser sends without a preflight is refused before it runs.
    const simple = await fetch(`${emu.url}/credential/webhook`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'text/plain' }, body: '{}' });
    expect(simple.status).toBe(403);
    expect(((await simple.json()) as { message: string }).message).toContain('--cors-origin https://evil.example');
    const read = await fetch(`${emu.url}/assistant`, { headers: { origin: 'https://evil.example', authorization: 'Bearer k' } });
    expect(read.status).toBe(403);
    const own = await fetch(`${emu.url}/assistant`, { headers: { origin: 'http://127.0.0.1:5173', authorization: 'Bearer k' } });
    expect(own.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    // The public-key endpoints answer any site, as the platform does.
    for (const path of ['/call/web', '/chat/web', '/chat/web/responses']) {
      const res = await preflight(path, 'https://shop.example', 'POST');
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
    const web = await fetch(`${emu.url}/call/web`, {
      method: 'POST',
      headers: { origin: 'https://shop.example', authorization: 'Bearer pk', 'content-type': 'application/json' },
      body: '{"assistantId":"a"}',
    });
    expect(web.headers.get('access-control-allow-origin')).toBe('*');
    // Without an Origin (curl, the CLI, servers) nothing changes.
    expect((await fetch(`${emu.url}/assistant`, { headers: { authorization: 'Bearer k' } })).status).toBe(200);
  });

  it('adds origins with corsOrigins, and refuses Host names that are not this machine', async () => {
    const open = await startEmulator({ corsOrigins: ['https://app.example'] });
    try {
      const ok = await fetch(`${open.url}/assistant`, { headers: { origin: 'https://app.example', authorization: 'Bearer k' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect((await fetch(`${open.url}/assistant`, { headers: { origin: 'https://other.example', authorization: 'Bearer k' } })).status).toBe(403);
      const { request } = await import('node:http');
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(`${open.url}/assistant`, { headers: { host: 'rebound.example:4010', authorization: 'Bearer k' } }, (res) => (res.resume(), resolve(res.statusCode)));
        req.on('error', reject).end();
      });
      expect(status).toBe(403);
    } finally {
      await open.close();
    }
  });
});

describe('extension seam', () => {
  it('passes unmatched requests to the fallback before answering 404', async () => {
    const withFallback = await startEmulator({
      fallback: (req, res) => {
        if (!req.url?.startsWith('/rest/v1/')) return false;
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
        return true;
      },
    });
    try {
      expect((await fetch(`${withFallback.url}/rest/v1/visitors`)).status).toBe(200);
      expect((await fetch(`${withFallback.url}/elsewhere`)).status).toBe(404);
      expect((await fetch(`${withFallback.url}/assistant`, { headers: { authorization: 'Bearer k' } })).status).toBe(200);
    } finally {
      await withFallback.close();
    }
  });
});
