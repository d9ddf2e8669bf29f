import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Json } from '../messages/index.js';
import { createModelGateway, toolsForModel } from './index.js';
import { startFakeModel, type FakeModel } from './testing.js';
import type { ChatMessage } from './types.js';

let fake: FakeModel;
afterEach(() => fake?.close());

const context = {
  call: { id: 'call-1', type: 'webCall', status: 'in-progress' },
  phoneNumber: { id: 'pn-1', number: '+15550000' },
  customer: { number: '+15551234' },
};

async function sent(model: Json, assistantExtra: Json = {}, messages: ChatMessage[] = [{ role: 'user', content: 'Where is my parcel?' }], credentials: Record<string, Json> = {}) {
  fake = await startFakeModel([{ text: 'ok' }]);
  const gateway = createModelGateway({ apiKey: 'sk-not-for-custom-llm' }, { credential: (id) => credentials[id] });
  const assistant = { name: 'Desk', metadata: { tenant: 'acme', tier: 'gold' }, ...assistantExtra, model: { provider: 'custom-llm', url: `${fake.url}/`, model: 'my-llm', ...model } };
  const result = await gateway.step({ assistant, tools: [], messages, context });
  expect(result.ok).toBe(true);
  return await fake.request(0);
}

describe("custom-llm receives the platform's request", () => {
  it('metadataSendMode variable (the default): messages, metadata, call, phoneNumber, customer', async () => {
    const req = await sent({ messages: [{ role: 'system', content: 'You track parcels.' }], temperature: 0.2, maxTokens: 120 });
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.body).toEqual({
      model: 'my-llm',
      messages: [
        { role: 'system', content: 'You track parcels.' },
        { role: 'user', content: 'Where is my parcel?' },
      ],
      temperature: 0.2,
      max_tokens: 120,
      stream: true,
      metadata: { tenant: 'acme', tier: 'gold' },
      ...context,
    });
  });

  it('metadataSendMode destructured: metadata fields on the body itself, plus call, phoneNumber, customer', async () => {
    const req = await sent({ metadataSendMode: 'destructured' });
    expect(req.body).toMatchObject({ tenant: 'acme', tier: 'gold', ...context, model: 'my-llm', stream: true });
    expect(req.body).not.toHaveProperty('metadata');
  });

  it('metadataSendMode off: no metadata, call, phoneNumber or customer; defaults for temperature and max_tokens', async () => {
    const req = await sent({ metadataSendMode: 'off' });
    expect(req.body).toEqual({ model: 'my-llm', messages: [{ role: 'user', content: 'Where is my parcel?' }], temperature: 0.5, max_tokens: 250, stream: true });
  });

  it('headers from model.headers; Authorization only from the custom-llm credential, never the configured key', async () => {
    const req = await sent({ headers: { 'X-Tenant': 'acme', Authorization: 'Bearer from-headers' }, credentialId: 'cred-1' }, {}, undefined, {
      'cred-1': { id: 'cred-1', provider: 'custom-llm', apiKey: 'llm-secret' },
    });
    expect(req.headers['x-tenant']).toBe('acme');
    expect(req.headers.authorization).toBe('Bearer llm-secret');
    expect(req.headers['content-type']).toBe('application/json');
  });

  it("the org's custom-llm credential when the assistant names none (only those credentialIds allow); a url ending in /chat/completions kept; a user-agent", async () => {
    fake = await startFakeModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const stored: Json[] = [
      { id: 'c-voice', provider: '11labs', apiKey: 'not-this-one' },
      { id: 'c-llm', provider: 'custom-llm', apiKey: 'org-key' },
      { id: 'c-llm-2', provider: 'custom-llm', apiKey: 'second-key' },
    ];
    const gateway = createModelGateway({}, { credential: (id) => stored.find((c) => c.id === id), credentials: () => stored });
    const step = (url: string, extra: Json = {}) => gateway.step({ assistant: { ...extra, model: { provider: 'custom-llm', url, model: 'm' } }, tools: [], messages: [] });
    expect((await step(`${fake.url}/chat/completions/`)).ok).toBe(true);
    expect((await step(fake.url, { credentialIds: ['c-voice', 'c-llm-2'] })).ok).toBe(true);
    expect((await step(fake.url, { credentialIds: [] })).ok).toBe(true);
    const [first, second, third] = [await fake.request(0), await fake.request(1), await fake.request(2)];
    expect(first.path).toBe('/v1/chat/completions');
    expect(first.headers.authorization).toBe('Bearer org-key');
    expect(first.headers['user-agent']).toMatch(/^voice-emulator\//);
    expect(second.headers.authorization).toBe('Bearer second-key');
    expect(third.headers.authorization).toBeUndefined();
  });

  it('no credential: no Authorization header; an unknown credentialId fails the step clearly', async () => {
    const req = await sent({});
    expect(req.headers).not.toHaveProperty('authorization');
    const gateway = createModelGateway({}, { credential: () => undefined });
    const result = await gateway.step({ assistant: { model: { provider: 'custom-llm', url: fake.url, credentialId: 'missing' } }, tools: [], messages: [] });
    expect(result).toMatchObject({ ok: false, endedReason: 'call.in-progress.error-providerfault-custom-llm-llm-failed' });
    if (!result.ok) expect(result.message).toContain('credential missing');
  });

  it("a credential's OAuth2 plan: a client-credentials token, fetched once, becomes the Bearer; a refused token fails as 401", async () => {
    const forms: string[] = [];
    let refuse = false;
    const tokens = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        forms.push(text);
        res.writeHead(refuse ? 401 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(refuse ? { error: 'invalid_client' } : { access_token: 'tok-1', expires_in: 3600, token_type: 'Bearer' }));
      });
    });
    await new Promise<void>((r) => tokens.listen(0, '127.0.0.1', r));
    const tokenUrl = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/token`;
    try {
      fake = await startFakeModel([{ text: 'a' }, { text: 'b' }]);
      const plan = { type: 'oauth2', url: tokenUrl, clientId: 'client', clientSecret: 'shh', scope: 'llm' };
      const gateway = createModelGateway(
        {},
        {
          credential: (id) =>
            id === 'c' ? { provider: 'custom-llm', apiKey: 'unused', authenticationPlan: plan } : { provider: 'custom-llm', apiKey: 'k', authenticationPlan: { ...plan, clientId: 'other' } },
        },
      );
      const assistant = (credentialId: string) => ({ model: { provider: 'custom-llm', url: fake.url, credentialId } });
      expect(await gateway.step({ assistant: assistant('c'), tools: [], messages: [] })).toMatchObject({ ok: true });
      expect(await gateway.step({ assistant: assistant('c'), tools: [], messages: [] })).toMatchObject({ ok: true });
      expect(fake.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1']);
      expect(forms).toEqual(['grant_type=client_credentials&client_id=client&client_secret=shh&scope=llm']);
      refuse = true;
      const refused = await gateway.step({ assistant: assistant('d'), tools: [], messages: [] });
      expect(refused).toMatchObject({ ok: false, endedReason: 'call.in-progress.error-vapifault-custom-llm-401-unauthorized' });
      if (!refused.ok) expect(refused.message).toContain('invalid_client');
      expect(fake.requests).toHaveLength(2);
    } finally {
      tokens.closeAllConnections();
      tokens.close();
    }
  });

  it('a request after a tool result carries the call and its result as a tool message with its id', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Track PX-1' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'trackParcel', arguments: '{"parcelId":"PX-1"}' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: '{"status":"out for delivery"}' },
    ];
    const req = await sent({}, {}, messages);
    expect(req.body.messages).toEqual(messages);
  });
});

describe('toolsForModel', () => {
  const fn = {
    type: 'function',
    function: { name: 'trackParcel', description: 'Track a parcel', parameters: { type: 'object', properties: { parcelId: { type: 'string' } }, required: ['parcelId'] } },
    server: { url: 'http://x' },
  };

  it('function tools as OpenAI functions; endCall, transferCall and handoff as built-in functions', () => {
    const tools = toolsForModel(
      [
        fn,
        { type: 'endCall' },
        {
          type: 'transferCall',
          destinations: [
            { type: 'number', number: '+15550199', description: 'billing questions' },
            { type: 'sip', sipUri: 'sip:desk@example.com' },
          ],
        },
        { type: 'handoff', destinations: [{ type: 'assistant', assistantId: 'a-2', description: 'returns' }] },
      ],
      [{ id: 'a-2', name: 'Returns' }],
    );
    expect(tools[0]).toEqual({ type: 'function', function: fn.function });
    expect(tools[1]).toMatchObject({ type: 'function', function: { name: 'endCall', parameters: { type: 'object', properties: {} } } });
    expect(tools[2]).toMatchObject({
      type: 'function',
      function: { name: 'transferCall', parameters: { type: 'object', required: ['destination'], properties: { destination: { type: 'string', enum: ['+15550199', 'sip:desk@example.com'] } } } },
    });
    expect((tools[2]!.function as Json).description).toContain('billing questions');
    expect(tools[3]).toMatchObject({ function: { name: 'handoff_to_Returns', parameters: { properties: { destination: { enum: ['Returns'] } }, required: ['destination'] } } });
  });

  it("a built-in tool's own function overrides parts of the constructed one; names are made valid and unique", () => {
    const tools = toolsForModel([
      { type: 'endCall', function: { name: 'hang_up' } },
      fn,
      { ...fn, function: { name: 'trackParcel' } },
      { type: 'function', function: { name: 'look up' } },
      { type: 'query' },
    ]);
    expect(tools.map((t) => (t.function as Json).name)).toEqual(['hang_up', 'trackParcel', 'look_up']);
    expect((tools[0]!.function as Json).description).toContain('Ends the call');
  });
});
