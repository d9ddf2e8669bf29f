// Every catalogue operation, exercised through the REST client against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webhook from '../../fixtures/bodies/credential-webhook.json' with { type: 'json' };
import { catalogue, flatten } from '../catalogue/index.js';
import { AuthenticationError, BadRequestError, NotFoundError, createClient } from '../client/node.js';
import type { Client } from '../client/index.js';
import { startEmulator } from './index.js';
import type { Emulator } from './index.js';
import { publishedOperations } from './published.test-support.js';

const UUID = /^[0-9a-f-]{36}$/;
/** The seed's phone number (campaigns need one). */
const SEED_NUMBER = '6375cea7-dbcb-5ace-8de8-94aedb4b3040';
const covered = new Set<string>();
let emu: Emulator;
let c: Client;

/** Records which catalogue operations a test calls, by their keys. */
function track<T extends object>(target: T, keys: string[] = []): T {
  return new Proxy(target, {
    get(obj, prop, recv) {
      const value = Reflect.get(obj, prop, recv) as unknown;
      if (typeof prop !== 'string') return value;
      if (typeof value === 'function' && !['invoke', 'request'].includes(prop)) {
        return (...args: unknown[]) => {
          covered.add([...keys, prop].join('.'));
          return (value as (...a: unknown[]) => unknown).apply(obj, args);
        };
      }
      return value && typeof value === 'object' ? track(value as object, [...keys, prop]) : value;
    },
  });
}

function stored(o: unknown): void {
  expect(o).toMatchObject({ id: expect.stringMatching(UUID), orgId: expect.stringMatching(UUID), createdAt: expect.any(String), updatedAt: expect.any(String) });
}

/** Create, get, update, list (plain or paginated), delete, second delete 404. */
async function crud(
  ns: Record<string, (...a: never[]) => Promise<unknown>>,
  body: object,
  patch: object,
  kind: 'plain' | 'paginated',
  extra: (created: { id: string }) => Promise<void> = async () => {},
) {
  const api = ns as unknown as {
    create(b: object): Promise<{ id: string }>;
    get(id: string): Promise<{ id: string }>;
    update(id: string, b: object): Promise<Record<string, unknown>>;
    list(q?: object): Promise<unknown>;
    delete(id: string): Promise<{ id: string }>;
  };
  const created = await api.create(body);
  stored(created);
  expect(await api.get(created.id)).toEqual(created);
  const updated = await api.update(created.id, patch);
  expect(updated).toMatchObject({ id: created.id, ...patch });
  const listed = await api.list({ limit: 1000 });
  const items = kind === 'plain' ? (listed as Array<{ id: string }>) : (listed as { results: Array<{ id: string }>; metadata: object }).results;
  if (kind === 'paginated') expect((listed as { metadata: object }).metadata).toMatchObject({ itemsPerPage: 1000, currentPage: 1 });
  else expect(Array.isArray(listed)).toBe(true);
  expect(items.map((i) => i.id)).toContain(created.id);
  await extra(created);
  expect((await api.delete(created.id)).id).toBe(created.id);
  await expect(api.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  await expect(api.delete(created.id)).rejects.toBeInstanceOf(NotFoundError);
}

beforeAll(async () => {
  emu = await startEmulator({ seed: true });
  c = track(createClient({ apiKey: 'test-key', baseUrl: emu.url, maxRetries: 0 }));
});
afterAll(() => emu.close());

describe('every operation through the client', () => {
  it('assistants, including replace and versions, and the v2 list', async () => {
    await crud(c.assistant as never, { name: 'A', model: { provider: 'openai', model: 'gpt-4o' } }, { name: 'B' }, 'plain', async (a) => {
      const replaced = await c.assistant.replace(a.id, { name: 'C' });
      expect(replaced).toMatchObject({ id: a.id, name: 'C' });
      expect(replaced.model).toBeUndefined();
      const versions = await c.assistant.version(a.id);
      expect(versions.map((v) => v.name)).toEqual(['C', 'B', 'A']);
      const page = await c.v2.assistant.list({ limit: 2 });
      expect(page.results).toHaveLength(2);
      expect(page.metadata.hasNextPage).toBe(true);
    });
  });

  it('calls: create, phone, web, list, v2 list, metadata and export, logs', async () => {
    await crud(c.call as never, { assistantId: 'a1', customer: { number: '+15550100' } }, { name: 'renamed' }, 'plain', async (call) => {
      expect(await c.call.get(call.id)).toMatchObject({ type: 'outboundPhoneCall', customer: { number: '+15550100' } });
      const v2 = await c.v2.call.list({ idAny: [call.id] });
      expect(v2.results.map((x) => x.id)).toEqual([call.id]);
      expect((await c.v2.call.metadata({ id: call.id })).metadata.totalItems).toBe(1);
      const csv = await c.v2.call.export({ id: call.id });
      expect(String(csv)).toContain(call.id);
      const logs = await c.log.list({ callId: call.id });
      expect(logs.results.length).toBeGreaterThan(0);
      expect((await c.logs.list({ callId: call.id })).results.length).toBeGreaterThan(0);
      await c.log.delete({ callId: call.id });
      expect((await c.log.list({ callId: call.id })).results).toHaveLength(0);
      await c.logs.delete({ callId: call.id });
      // A call is deleted once it has ended (a running one refuses: calls/control-messages.test.ts).
      emu.calls.end(call.id, 'operator');
      await emu.calls.idle();
    });
    const phone = await c.call.phone({ customer: { number: '+15550101' }, assistantId: 'a1' });
    expect(phone).toMatchObject({ type: 'outboundPhoneCall', status: 'queued' });
    const web = await c.call.web({ assistant: { name: 'W', voice: { provider: 'vapi', voiceId: 'Elliot' } } });
    expect(web.type).toBe('webCall');
    expect(web.webCallUrl).toBe(`${emu.url}/__voice/webcall/${web.id}`);
    expect(web.assistant?.voice?.provider).toBe('vapi');
    await expect(c.call.web({})).rejects.toBeInstanceOf(BadRequestError);
  });

  it('chats (paginated) and the responses variants', async () => {
    const chat = await c.chat.create({ input: 'Hi there' });
    stored(chat);
    expect(chat.output?.[0]).toMatchObject({ role: 'assistant' });
    expect(await c.chat.get(chat.id)).toEqual(chat);
    const page = await c.chat.list({ limit: 5 });
    expect(page.results[0]?.id).toBe(chat.id);
    expect((await c.chat.web({ input: 'From the browser' })).messages).toEqual([{ role: 'user', content: 'From the browser' }]);
    expect(await c.chat.responses({ input: 'R', stream: false })).toMatchObject({ object: 'response', status: 'completed' });
    expect(await c.chat.webResponses({ input: 'R', stream: false })).toMatchObject({ object: 'response' });
    expect((await c.chat.delete(chat.id)).id).toBe(chat.id);
    await expect(c.chat.get(chat.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('campaigns (both paginated lists) and sessions', async () => {
    // A campaign starts when created and a delete archives it (its record stays): not the generic round trip.
    const later = { earliestAt: new Date(Date.now() + 86_400_000).toISOString() };
    const camp = await c.campaign.create({ name: 'Camp', phoneNumberId: SEED_NUMBER, customers: [], schedulePlan: later });
    stored(camp);
    expect((await c.campaign.listPaginated({ id: camp.id })).results.map((x) => x.id)).toEqual([camp.id]);
    expect((await c.campaign.list({ id: camp.id })).results.map((x) => x.id)).toEqual([camp.id]);
    expect(await c.campaign.update(camp.id, { name: 'Camp 2' })).toMatchObject({ id: camp.id, name: 'Camp 2', status: 'scheduled' });
    expect((await c.campaign.delete(camp.id)).status).toBe('archived');
    expect((await c.campaign.get(camp.id)).status).toBe('archived');
    await expect(c.campaign.create({ name: 'No number', customers: [] })).rejects.toBeInstanceOf(BadRequestError);
    await crud(c.session as never, { name: 'S' }, { name: 'S2' }, 'paginated');
  });

  it('phone numbers, imports and the v2 list', async () => {
    await crud(c.phoneNumber as never, { provider: 'byo-phone-number', number: '+15550199', credentialId: 'cred-sip-1' }, { name: 'Main' }, 'plain', async (pn) => {
      expect((await c.v2.phoneNumber.list({ search: '0199' })).results.map((x) => x.id)).toContain(pn.id);
    });
    expect(await c.phoneNumber.importTwilio({ twilioPhoneNumber: '+15550001', twilioAccountSid: 'AC1', twilioAuthToken: 't' })).toMatchObject({ provider: 'twilio', number: '+15550001' });
    expect(await c.phoneNumber.importVonage({ vonagePhoneNumber: '+15550002', credentialId: 'cred' })).toMatchObject({ provider: 'vonage', number: '+15550002' });
    await expect(c.phoneNumber.create({} as never)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('tools, knowledge bases, squads, workflows, tokens, credentials, templates', async () => {
    await crud(c.tool as never, { type: 'endCall' }, { type: 'transferCall' }, 'plain');
    await crud(c.knowledgeBase as never, { provider: 'trieve', name: 'KB' }, { name: 'KB2' }, 'plain');
    await crud(c.squad as never, { members: [{ assistantId: 'a' }] }, { name: 'Sq', members: [{ assistantId: 'b' }] }, 'plain');
    await crud(c.workflow as never, { name: 'W', nodes: [], edges: [] }, { name: 'W2' }, 'plain');
    const generated = await c.workflow.generate({});
    expect(generated.nodes.length).toBeGreaterThan(0);
    await crud(c.token as never, { name: 'T' }, { name: 'T2' }, 'plain', async (t) => {
      expect((await c.token.get(t.id)).value).toMatch(UUID);
    });
    await crud(c.credential as never, { provider: 'openai', apiKey: 'sk' }, { name: 'C' }, 'plain');
    await crud(c.template as never, { type: 'tool', visibility: 'public', name: 'Tpl' }, { type: 'tool', name: 'Tpl2' }, 'plain', async (t) => {
      expect((await c.template.pinned()).map((x) => x.id)).toContain(t.id);
    });
  });

  it('files: multipart upload (both paths), filter by purpose, update, delete', async () => {
    const file = await c.file.create({ file: Buffer.from('hello world'), filename: 'faq.txt', contentType: 'text/plain', purpose: 'knowledge-base-v2' });
    expect(file).toMatchObject({ name: 'faq.txt', bytes: 11, mimetype: 'text/plain', purpose: 'knowledge-base-v2' });
    const old = await c.file.upload({ file: new Blob(['abc'], { type: 'application/pdf' }), filename: 'a.pdf' });
    expect(old).toMatchObject({ name: 'a.pdf', bytes: 3, mimetype: 'application/pdf' });
    expect((await c.file.list({ purpose: 'knowledge-base-v2' })).map((f) => f.id)).toEqual(expect.arrayContaining([file.id]));
    expect((await c.file.list({ purpose: 'knowledge-base-v2' })).map((f) => f.id)).not.toContain(old.id);
    expect(await c.file.get(file.id)).toEqual(file);
    expect((await c.file.update(file.id, { name: 'faq2.txt' })).name).toBe('faq2.txt');
    expect((await c.file.delete(old.id)).id).toBe(old.id);
  });

  it('test suites with their tests and runs, scoped to the suite', async () => {
    await crud(c.testSuite as never, { name: 'Suite' }, { name: 'Suite 2' }, 'paginated', async (suite) => {
      const test = await c.testSuite.test.create(suite.id, { type: 'chat', script: 'Say hi', scorers: [{ type: 'ai', rubric: 'It says hi' }] });
      expect(test.testSuiteId).toBe(suite.id);
      expect(await c.testSuite.test.get(suite.id, test.id)).toEqual(test);
      expect((await c.testSuite.test.update(suite.id, test.id, { name: 'N' })).name).toBe('N');
      expect((await c.testSuite.test.list(suite.id)).results).toHaveLength(1);
      const run = await c.testSuite.run.create(suite.id, {});
      expect(run).toMatchObject({ testSuiteId: suite.id, status: 'queued' });
      expect(await c.testSuite.run.get(suite.id, run.id)).toEqual(run);
      expect((await c.testSuite.run.update(suite.id, run.id, { name: 'R' })).name).toBe('R');
      expect((await c.testSuite.run.list(suite.id, { page: 1 })).metadata.totalItems).toBe(1);
      expect((await c.testSuite.run.delete(suite.id, run.id)).id).toBe(run.id);
      expect((await c.testSuite.test.delete(suite.id, test.id)).id).toBe(test.id);
      await expect(c.testSuite.run.list('no-such-suite')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  it('organisations: CRUD, users, invite, role, member leave, leave, auth token', async () => {
    const orgs = await c.org.list();
    expect(orgs.length).toBeGreaterThan(0);
    const org = await c.org.create({ name: 'Acme' });
    expect(org).toMatchObject({ id: expect.stringMatching(UUID), name: 'Acme' });
    expect((await c.org.get(org.id)).name).toBe('Acme');
    expect((await c.org.update(org.id, { name: 'Acme 2' })).name).toBe('Acme 2');
    await c.org.invite(org.id, { emails: ['a@example.com'], role: 'viewer' });
    const users = await c.org.users(org.id);
    const invited = users.find((u) => u.email === 'a@example.com');
    expect(invited?.role).toBe('viewer');
    await c.org.updateRole(org.id, { userId: invited?.id as string, role: 'editor' });
    expect((await c.org.users(org.id)).find((u) => u.id === invited?.id)?.role).toBe('editor');
    await c.org.removeMember(org.id, invited?.id as string);
    expect((await c.org.auth(org.id)).token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await c.org.leave(org.id);
    expect(await c.org.users(org.id)).toEqual([]);
    await c.org.delete(org.id);
    await expect(c.org.get(org.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('analytics, support tickets, credential session/webhook/trigger', async () => {
    const [result] = await c.analytics.query({
      queries: [
        {
          table: 'call',
          name: 'all',
          operations: [
            { operation: 'count', column: 'id' },
            { operation: 'sum', column: 'cost' },
          ],
        },
      ],
    });
    const calls = await c.call.list({ limit: 1000 });
    expect(result?.result[0]?.countId).toBe(calls.length);
    expect(result?.result[0]?.sumCost).toBeCloseTo(calls.reduce((n, x) => n + (x.cost ?? 0), 0));
    expect((await c.support.ticket({ category: 'others', subject: 'S', message: 'A question about billing' })).id).toMatch(UUID);
    expect((await c.credential.session({ provider: 'slack.oauth2-authorization' })).sessionToken).toEqual(expect.any(String));
    expect(await c.credential.trigger({ action_name: 'a', input: {} })).toMatchObject({ action_name: 'a' });
    const open = track(createClient({ baseUrl: emu.url, maxRetries: 0 }));
    expect(await open.credential.webhook(webhook as never)).toEqual({ received: true });
    await expect(open.assistant.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('voice library, providers and voice cloning', async () => {
    const voices = await c.voiceLibrary.get('11labs', { gender: 'male' });
    expect(voices.length).toBeGreaterThan(0);
    expect(voices.every((v) => v.provider === '11labs')).toBe(true);
    expect((await c.voiceLibrary.accents('11labs')).map((v) => v.accent)).toContain('american');
    expect(((await c.voiceLibrary.sync('vapi', {})) as unknown as Array<{ provider: string }>).every((v) => v.provider === 'vapi')).toBe(true);
    expect((await c.voiceLibrary.syncAll({ providers: ['openai'] })).map((v) => v.provider)).toEqual(['openai', 'openai']);
    expect(await c.voiceLibrary.createSesameVoice({ voiceName: 'Narrator' })).toMatchObject({ provider: 'sesame', name: 'Narrator' });
    expect(await c.provider.locations('gohighlevel')).toHaveProperty('locations');
    const wf = (await c.provider.workflows('gohighlevel', {})) as { workflows: Array<{ id: string }> };
    expect((await c.provider.workflowHooks('gohighlevel', wf.workflows[0]?.id as string)) as object).toHaveProperty('hooks');
    expect((await c.provider.voiceSearch('11labs', { name: 'rachel' }))[0]).toMatchObject({ name: 'Rachel' });
    expect((await c.provider.voicesSearch('cartesia', {})).length).toBe(2);
    const added = await c.provider.voiceAdd('11labs', { ownerId: 'o', voiceId: 'v1', name: 'Added' });
    expect(added).toMatchObject({ provider: '11labs', providerId: 'v1' });
    expect(await c.provider.voicesAdd('11labs', { ownerId: 'o', voiceId: 'v2', name: 'Added 2' })).toMatchObject({ providerId: 'v2' });
    expect((await c.voiceLibrary.get('11labs', { keyword: 'added' })).map((v) => v.name).sort()).toEqual(['Added', 'Added 2']);
    const clone = await c.elevenLabs.clone({ file: Buffer.alloc(2048), filename: 'sample.mp3', contentType: 'audio/mpeg', name: 'My voice' });
    expect(clone).toMatchObject({ name: 'My voice', provider: '11labs' });
  });

  publishedOperations(() => c, crud as never);

  it('covered every catalogue operation', () => {
    const all = flatten(catalogue).map((e) => e.keys.join('.'));
    expect(all.filter((k) => !covered.has(k))).toEqual([]);
  });
});

describe('concurrency', () => {
  it('200 concurrent creates from parallel clients give 200 distinct records that list and get see', async () => {
    const clients = Array.from({ length: 8 }, () => createClient({ apiKey: 'k', baseUrl: emu.url, maxRetries: 0 }));
    const created = await Promise.all(Array.from({ length: 200 }, (_, i) => (clients[i % 8] as Client).squad.create({ name: `sq-${i}`, members: [{ assistantId: 'a' }] })));
    const ids = new Set(created.map((s) => s.id));
    expect(ids.size).toBe(200);
    const listed = await c.squad.list({ limit: 1000 });
    expect(listed.filter((s) => ids.has(s.id))).toHaveLength(200);
    const got = await Promise.all(created.map((s, i) => (clients[i % 8] as Client).squad.get(s.id)));
    expect(got.map((s) => s.name)).toEqual(created.map((s) => s.name));
  });
});
