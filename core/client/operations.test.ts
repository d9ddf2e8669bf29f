// Every catalogue operation, called once through the typed client against a loopback server
// that records what arrived: method, path, query, auth, body (JSON or parsed multipart).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, flatten, pathParamNames } from '../catalogue/index.js';
import type { Op } from '../catalogue/index.js';
import { buildRequest, createClient as createBrowserClient, PathValueError, VoiceError } from './index.js';
import { createClient } from './node.js';
import { formOf, startServer } from './node-testing.js';
import type { Reply, TestServer } from './node-testing.js';

const KEY = 'test-key-123';
const entries = flatten(catalogue);
let server: TestServer;
let reply: Reply = {};

beforeAll(async () => {
  server = await startServer(() => reply);
});
afterAll(() => server.close());

const DATE = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

/** A sample value per query parameter, and the strings the server must see for it. */
function sample(name: string): [unknown, string[]] {
  if (name.endsWith('Any'))
    return [
      ['a 1', 'b/2'],
      ['a 1', 'b/2'],
    ];
  if (/^(created|updated)At/.test(name)) return [DATE, ['2024-01-02T03:04:05.000Z']];
  if (['limit', 'page', 'cost', 'costLe', 'costGe'].includes(name)) return [3, ['3']];
  if (name === 'sortOrder') return ['DESC', ['DESC']];
  if (name === 'numberE164CheckEnabled') return [true, ['true']];
  return [`${name} & more`, [`${name} & more`]];
}

function methodAt(client: unknown, keys: readonly string[]): (...args: unknown[]) => Promise<unknown> {
  let node = client as Record<string, unknown>;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  expect(typeof node).toBe('function');
  return node as unknown as (...args: unknown[]) => Promise<unknown>;
}

/** Bytes that are not valid UTF-8, so a binary answer read as text would be caught. */
const FILE_BYTES = Uint8Array.from([0x52, 0x49, 0x46, 0x46, 0xff, 0x00, 0x80, 0xfe, 0x0a]);

function answerFor(op: Op): unknown {
  if (op.response === 'binary') return FILE_BYTES;
  if (op.list === 'plain') return [{ id: 'r1', createdAt: '2024-01-01T00:00:00.000Z' }];
  if (op.list === 'paginated') return { results: [{ id: 'r1' }], metadata: { itemsPerPage: 1, totalItems: 1, currentPage: 1, hasNextPage: false } };
  return { id: 'r1', op: op.path };
}

const clients = {
  node: () => createClient({ apiKey: KEY, baseUrl: server.url }),
  fetch: () => createBrowserClient({ apiKey: KEY, baseUrl: `${server.url}/` }),
};

describe.each(Object.keys(clients) as Array<keyof typeof clients>)('every operation (%s transport)', (kind) => {
  it.each(entries.map((e) => [`${e.op.method} ${e.op.path} (${e.keys.join('.')})`, e] as const))('%s', async (_label, entry) => {
    const { op, keys } = entry;
    const client = clients[kind]();
    const names = pathParamNames(op.path);
    const values = names.map((n, i) => `${n}-${i} x/y`);
    const args: unknown[] = [...values];
    const expectedQuery = new Map<string, string[]>();
    let json: unknown;
    if (op.body === 'json') {
      json = { name: `n-${keys.join('.')}`, nested: { list: [1, 2], ok: true } };
      args.push(json);
    } else if (op.body === 'multipart') {
      args.push({ file: new TextEncoder().encode('hello upload'), filename: 'notes.txt', purpose: 'assistant', metadata: { a: 1 } });
    } else if (op.query.length > 0) {
      const query: Record<string, unknown> = {};
      for (const name of op.query) {
        const [value, seen] = sample(name);
        query[name] = value;
        expectedQuery.set(name, seen);
      }
      args.push(query);
    }
    reply = { body: answerFor(op), headers: { 'x-request-id': 'req-1' } };
    const before = server.requests.length;

    const data = await methodAt(client, keys)(...args);

    expect(server.requests.length).toBe(before + 1);
    const rec = server.requests[before]!;
    expect(rec.method).toBe(op.method);
    const expectedPath = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(values.shift() as string));
    expect(rec.path).toBe(expectedPath);
    const params = new URLSearchParams(rec.query);
    expect([...new Set(params.keys())]).toEqual([...expectedQuery.keys()]);
    for (const [name, seen] of expectedQuery) expect(params.getAll(name)).toEqual(seen);
    if (op.response === 'binary') {
      expect(rec.headers.accept).toBe('*/*');
      expect(data).toBeInstanceOf(Uint8Array);
    }
    if (op.auth === 'none') expect(rec.headers.authorization).toBeUndefined();
    else expect(rec.headers.authorization).toBe(`Bearer ${KEY}`);
    if (op.body === 'json') {
      expect(rec.headers['content-type']).toBe('application/json');
      expect(JSON.parse(rec.body.toString('utf8'))).toEqual(json);
    } else if (op.body === 'multipart') {
      expect(String(rec.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
      const form = await formOf(rec);
      const field = (op as Op & { fileField?: string }).fileField ?? 'file';
      const file = form.get(field) as File;
      expect(file.name).toBe('notes.txt');
      expect(file.type).toBe('text/plain');
      expect(await file.text()).toBe('hello upload');
      expect(form.get('purpose')).toBe('assistant');
      expect(form.get('metadata')).toBe('{"a":1}');
    } else {
      expect(rec.body.length).toBe(0);
    }
    if (op.response === 'binary') expect([...(data as Uint8Array)]).toEqual([...FILE_BYTES]);
    else expect(data).toEqual(answerFor(op));
  });
});

describe.each(Object.keys(clients) as Array<keyof typeof clients>)('file downloads (%s transport)', (kind) => {
  it('follows a redirect to the storage host without sending the key there', async () => {
    const storage = await startServer(() => ({ body: FILE_BYTES }));
    try {
      reply = { status: 302, headers: { location: `${storage.url}/recordings/c1.wav` } };
      const data = await clients[kind]().call.recording.get('c1');
      expect([...data]).toEqual([...FILE_BYTES]);
      expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(storage.requests).toHaveLength(1);
      expect(storage.requests[0]!.path).toBe('/recordings/c1.wav');
      if (kind === 'node') expect(storage.requests[0]!.headers.authorization).toBeUndefined();
    } finally {
      await storage.close();
    }
  });

  it('reports an error answer of a download as an ApiError with the JSON message', async () => {
    reply = { status: 404, body: { statusCode: 404, message: 'No recording yet', error: 'Not Found' } };
    await expect(clients[kind]().call.recording.stereo('c1')).rejects.toMatchObject({ status: 404, message: expect.stringContaining('No recording yet') });
  });
});

describe('query of an operation with a body', () => {
  it('sends the body as JSON and the query from the request options', async () => {
    reply = { body: { id: 's1' } };
    await createClient({ apiKey: KEY, baseUrl: server.url }).structuredOutput.update('s1', { name: 'N' }, { query: { schemaOverride: 'true' } });
    const rec = server.requests.at(-1)!;
    expect(`${rec.method} ${rec.path}?${rec.query}`).toBe('PATCH /structured-output/s1?schemaOverride=true');
    expect(JSON.parse(rec.body.toString('utf8'))).toEqual({ name: 'N' });
  });
});

describe('request headers', () => {
  it('sends voice/<version> as User-Agent and JSON accept outside browsers, plus extra headers', async () => {
    const client = createClient({ apiKey: KEY, baseUrl: server.url, headers: { 'X-Team': 'a' } });
    reply = { body: { id: 'a' } };
    await client.assistant.get('a', { headers: { 'x-trace': 't1' } });
    const rec = server.requests.at(-1)!;
    expect(rec.headers['user-agent']).toMatch(/^voice\//);
    expect(rec.headers.accept).toBe('application/json');
    expect(rec.headers['x-team']).toBe('a');
    expect(rec.headers['x-trace']).toBe('t1');
  });

  it('sends no Authorization at all without an API key', async () => {
    const client = createClient({ baseUrl: server.url });
    reply = { body: [] };
    await client.assistant.list();
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('writes query arrays as repeated keys in the raw query string', async () => {
    const client = createClient({ apiKey: KEY, baseUrl: server.url });
    reply = { body: [] };
    await client.squad.list({ idAny: ['a', 'b'], limit: 2, createdAtGt: DATE });
    expect(server.requests.at(-1)!.query).toBe('idAny=a&idAny=b&limit=2&createdAtGt=2024-01-02T03%3A04%3A05.000Z');
  });
});

describe('client options and raw requests', () => {
  it('sends through a caller-supplied fetch', async () => {
    const seen: string[] = [];
    const myFetch: typeof fetch = async (input, init) => {
      seen.push(`${init?.method} ${String(input)}`);
      return fetch(input, init);
    };
    reply = { body: { id: 'a' } };
    const client = createClient({ apiKey: KEY, baseUrl: server.url, fetch: myFetch });
    await expect(client.assistant.get('a')).resolves.toEqual({ id: 'a' });
    expect(seen).toEqual([`GET ${server.url}/assistant/a`]);
  });

  it('lets the caller set the User-Agent', async () => {
    reply = { body: [] };
    await createClient({ baseUrl: server.url, userAgent: 'my-app/2' }).tool.list();
    expect(server.requests.at(-1)!.headers['user-agent']).toBe('my-app/2');
  });

  it('request() sends any method and path, with query, JSON body and auth choice', async () => {
    reply = { body: { done: true } };
    const client = createClient({ apiKey: KEY, baseUrl: server.url });
    const { data, status } = await client.request({ method: 'POST', path: '/custom/thing', query: { a: ['1', '2'] }, body: { x: 1 }, auth: 'none' }).withResponse();
    expect(data).toEqual({ done: true });
    expect(status).toBe(200);
    const rec = server.requests.at(-1)!;
    expect(`${rec.method} ${rec.path}?${rec.query}`).toBe('POST /custom/thing?a=1&a=2');
    expect(rec.headers.authorization).toBeUndefined();
    expect(JSON.parse(rec.body.toString('utf8'))).toEqual({ x: 1 });
  });

  it('buildRequest shows the exact request without sending it', async () => {
    const before = server.requests.length;
    const built = buildRequest({ apiKey: KEY, baseUrl: 'https://api.example.test/' }, catalogue.testSuite.run.get, ['s 1', 'r/2']);
    expect(built).toMatchObject({ method: 'GET', url: 'https://api.example.test/test-suite/s%201/run/r%2F2', bodyKind: 'none' });
    expect(built.headers.authorization).toBe(`Bearer ${KEY}`);
    const upload = buildRequest({ apiKey: KEY }, catalogue.file.create, [], { file: './faq.pdf', purpose: 'assistant' });
    expect(upload).toMatchObject({ url: 'https://api.vapi.ai/file', bodyKind: 'multipart', body: { file: './faq.pdf', purpose: 'assistant' } });
    expect(server.requests.length).toBe(before);
  });
});

describe('path values', () => {
  it.each([[''], ['   ']])('refuses an empty id (%j) before sending', async (id) => {
    const client = createClient({ apiKey: KEY, baseUrl: server.url });
    const before = server.requests.length;
    await expect(client.assistant.get(id)).rejects.toThrow(/Empty path value "id" for GET \/assistant\/\{id\}/);
    expect(server.requests.length).toBe(before);
  });

  it('refuses a missing id before sending', async () => {
    const client = createClient({ apiKey: KEY, baseUrl: server.url });
    const before = server.requests.length;
    const get = client.testSuite.run.get as unknown as (a: string) => Promise<unknown>;
    await expect(get('suite')).rejects.toThrow(PathValueError);
    await expect(get('suite')).rejects.toBeInstanceOf(VoiceError);
    await expect(client.invoke(catalogue.assistant.get, [])).rejects.toThrow(/Missing path value "id"/);
    expect(server.requests.length).toBe(before);
  });
});
