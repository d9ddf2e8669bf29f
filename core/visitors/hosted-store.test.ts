// The hosted store against a small PostgREST stand-in on loopback: what supabase-js sends with
// the service-role key, and how the database's answers reach the user.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHostedVisitorStore } from './hosted-store.js';
import type { Visitor } from './model.js';

const KEY = 'service-role-key-for-tests';
let rows: Visitor[] = [];
let tableExists = true;
const seen: Array<{ method: string; apikey: string | undefined; auth: string | undefined }> = [];
let server: Server;
let url: string;

function matches(params: URLSearchParams): (v: Visitor) => boolean {
  const f = params.get('slug');
  if (!f) return () => true;
  if (f.startsWith('eq.')) return (v) => v.slug === f.slice(3);
  const list = f.slice(4, -1).split(',');
  return (v) => list.includes(v.slug);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  const u = new URL(req.url ?? '/', 'http://x');
  seen.push({ method: req.method ?? '', apikey: req.headers.apikey as string | undefined, auth: req.headers.authorization });
  if (req.headers.apikey !== KEY) return send(res, 401, { message: 'Invalid API key' });
  if (u.pathname !== '/rest/v1/visitors' || !tableExists) return send(res, 404, { code: 'PGRST205', message: "Could not find the table 'public.visitors' in the schema cache" });
  const pick = matches(u.searchParams);
  const stamp = '2026-11-21T05:00:00+00:00';
  if (req.method === 'GET') {
    const sorted = rows.filter(pick).sort((a, b) => a.slug.localeCompare(b.slug));
    // offset and limit (range() in the client), capped at 1000 rows like Supabase.
    const offset = Number(u.searchParams.get('offset') ?? 0);
    const limit = Math.min(Number(u.searchParams.get('limit') ?? 1000), 1000);
    return send(res, 200, sorted.slice(offset, offset + limit));
  }
  if (req.method === 'POST') {
    const body = JSON.parse(text) as Visitor[];
    const taken = body.find((b) => rows.some((r) => r.slug === b.slug));
    if (taken) return send(res, 409, { code: '23505', details: `Key (slug)=(${taken.slug}) already exists.`, message: 'duplicate key value violates unique constraint "visitors_pkey"' });
    const added = body.map((b) => ({ ...b, created_at: stamp, updated_at: stamp }));
    rows.push(...added);
    return send(res, 201, added);
  }
  if (req.method === 'PATCH') {
    const patch = JSON.parse(text) as Partial<Visitor>;
    rows = rows.map((r) => (pick(r) ? { ...r, ...patch, updated_at: '2026-11-21T06:00:00+00:00' } : r));
    return send(res, 200, rows.filter(pick));
  }
  if (req.method === 'DELETE') {
    const gone = rows.filter(pick);
    rows = rows.filter((r) => !pick(r));
    return send(
      res,
      200,
      gone.map((r) => ({ slug: r.slug })),
    );
  }
  send(res, 405, { message: 'method' });
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  rows = [];
  tableExists = true;
  seen.length = 0;
});

const acme = { slug: 'acme', name: 'Acme', system: 'Sell to Acme.', first_message: 'Hi Acme!' };
const globex = { slug: 'globex', name: 'Globex', system: 'Sell to Globex.', first_message: 'Hi!' };

describe('the hosted visitors store', () => {
  it('round-trips visitors with the service-role key on every request', async () => {
    const store = await createHostedVisitorStore({ url, serviceRoleKey: KEY });
    expect(store.hosted).toBe(true);
    expect(await store.create([globex, acme])).toMatchObject([globex, acme]);
    expect((await store.list()).map((v) => v.slug)).toEqual(['acme', 'globex']);
    const [updated] = await store.update([{ slug: 'acme', name: 'Acme Corp' }]);
    expect(updated).toMatchObject({ ...acme, name: 'Acme Corp', updated_at: '2026-11-21T06:00:00+00:00' });
    expect(await store.get('acme')).toMatchObject({ name: 'Acme Corp' });
    await store.delete(['globex']);
    expect(await store.get('globex')).toBeUndefined();
    expect(seen.every((s) => s.apikey === KEY && s.auth === `Bearer ${KEY}`)).toBe(true);
  });

  it('explains duplicates, missing visitors, a missing table and a wrong key', async () => {
    const store = await createHostedVisitorStore({ url, serviceRoleKey: KEY });
    await store.create([acme]);
    await expect(store.create([acme])).rejects.toMatchObject({ kind: 'exists', message: expect.stringContaining('Visitor acme already exists') });
    await expect(store.update([{ slug: 'nope', name: 'X' }])).rejects.toMatchObject({ kind: 'not-found' });
    await expect(store.delete(['acme', 'nope'])).rejects.toMatchObject({ kind: 'not-found', message: expect.stringContaining('nope') });
    expect(rows).toHaveLength(1);
    tableExists = false;
    await expect(store.list()).rejects.toMatchObject({ kind: 'store', hint: expect.stringContaining('supabase db push') });
    const wrong = await createHostedVisitorStore({ url, serviceRoleKey: 'anon-key' });
    await expect(wrong.list()).rejects.toMatchObject({ kind: 'auth', hint: expect.stringContaining('service-role key') });
  });

  it('lists more than one response can hold', async () => {
    rows = Array.from({ length: 2345 }, (_, i) => ({ slug: `v-${String(i).padStart(4, '0')}`, name: `V${i}`, system: '', first_message: '' }));
    const store = await createHostedVisitorStore({ url, serviceRoleKey: KEY });
    const all = await store.list();
    expect(all).toHaveLength(2345);
    expect(all.at(-1)?.slug).toBe('v-2344');
  });

  it('refuses a URL that is not one', async () => {
    await expect(createHostedVisitorStore({ url: 'not a url', serviceRoleKey: KEY })).rejects.toMatchObject({ kind: 'invalid' });
  });
});
