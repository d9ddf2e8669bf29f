// Lists: awaiting gives the first page as the API sent it; iterating walks every page
// (plain lists by createdAtLt, paginated ones by page), capped by `limit`; withResponse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from './node.js';
import { startServer } from './node-testing.js';
import type { TestServer } from './node-testing.js';

interface Item {
  id: string;
  createdAt: string;
}

/** Seven items, newest first, as the platform orders plain lists. */
const ITEMS: Item[] = Array.from({ length: 7 }, (_, i) => ({ id: `a${7 - i}`, createdAt: new Date(Date.UTC(2024, 0, 7 - i)).toISOString() }));

let server: TestServer;
beforeAll(async () => {
  server = await startServer((rec) => {
    const q = new URLSearchParams(rec.query);
    const size = Number(q.get('limit') ?? 3);
    if (rec.path === '/assistant') {
      const before = q.get('createdAtLt');
      const older = before ? ITEMS.filter((a) => a.createdAt < before) : ITEMS;
      return { body: older.slice(0, size) };
    }
    if (rec.path === '/v2/knowledge-base') return { body: ITEMS.slice(0, 3) }; // takes no createdAtLt: one page
    if (rec.path === '/test-suite/s1/run') {
      const page = Number(q.get('page') ?? 1);
      const results = ITEMS.slice((page - 1) * size, page * size);
      const totalPages = Math.ceil(ITEMS.length / size);
      return { body: { results, metadata: { itemsPerPage: size, totalItems: ITEMS.length, currentPage: page, hasNextPage: page < totalPages } } };
    }
    if (rec.path === '/chat') {
      // Metadata without hasNextPage: paging stops on an empty page.
      const page = Number(q.get('page') ?? 1);
      return { body: { results: ITEMS.slice((page - 1) * 3, page * 3), metadata: { currentPage: page } } };
    }
    return { status: 404, body: { message: 'no route' } };
  });
});
afterAll(() => server.close());

const client = (): ReturnType<typeof createClient> => createClient({ apiKey: 'k', baseUrl: server.url });
const ids = (items: Array<{ id: string }>): string[] => items.map((a) => a.id);
const since = (n: number): string[] => server.requests.slice(n).map((r) => `${r.path}?${r.query}`);

describe('plain lists', () => {
  it('awaiting gives the first page exactly as sent', async () => {
    expect(await client().assistant.list()).toEqual(ITEMS.slice(0, 3));
  });

  it('iterates across 3 pages by createdAtLt of the last item', async () => {
    const start = server.requests.length;
    const seen: string[] = [];
    for await (const a of client().assistant.list()) seen.push(a.id);
    expect(seen).toEqual(ids(ITEMS));
    const requests = since(start);
    expect(requests).toEqual([
      '/assistant?',
      `/assistant?createdAtLt=${encodeURIComponent(ITEMS[2]!.createdAt)}`,
      `/assistant?createdAtLt=${encodeURIComponent(ITEMS[5]!.createdAt)}`,
      `/assistant?createdAtLt=${encodeURIComponent(ITEMS[6]!.createdAt)}`,
    ]);
  });

  it('limit caps the total number of items', async () => {
    const start = server.requests.length;
    expect(ids(await client().assistant.list({ limit: 2 }).all())).toEqual(['a7', 'a6']);
    expect(since(start)).toEqual(['/assistant?limit=2']);
  });
});

describe('plain lists without createdAtLt', () => {
  it('iterates the one page there is, without asking again', async () => {
    const before = server.requests.length;
    const ids = (await createClient({ apiKey: 'k', baseUrl: server.url }).v2.knowledgeBase.list().all()).map((x) => x.id);
    expect(ids).toEqual(['a7', 'a6', 'a5']);
    expect(server.requests.length - before).toBe(1);
  });
});

describe('paginated lists', () => {
  it('awaiting gives the first page with its metadata', async () => {
    const page = await client().testSuite.run.list('s1');
    expect(ids(page.results)).toEqual(['a7', 'a6', 'a5']);
    expect(page.metadata.hasNextPage).toBe(true);
  });

  it('iterates across 3 pages by page number until hasNextPage is false', async () => {
    const start = server.requests.length;
    const all = await client().testSuite.run.list('s1').all();
    expect(ids(all)).toEqual(ids(ITEMS));
    expect(since(start)).toEqual(['/test-suite/s1/run?', '/test-suite/s1/run?page=2', '/test-suite/s1/run?page=3']);
  });

  it('keeps the caller query on every page and caps by limit', async () => {
    const start = server.requests.length;
    const seen: string[] = [];
    for await (const run of client().testSuite.run.list('s1', { sortOrder: 'DESC', limit: 2 })) seen.push(run.id);
    expect(seen).toEqual(['a7', 'a6']);
    expect(since(start)).toEqual(['/test-suite/s1/run?sortOrder=DESC&limit=2']);
  });

  it('stops on an empty page when the metadata says nothing about more', async () => {
    const start = server.requests.length;
    expect((await client().chat.list().all()).length).toBe(7);
    expect(since(start)).toEqual(['/chat?', '/chat?page=2', '/chat?page=3', '/chat?page=4']);
  });
});

describe('withResponse', () => {
  it('gives data, status, headers, request id and the response', async () => {
    const { data, status, headers, response } = await client().assistant.list({ limit: 1 }).withResponse();
    expect(data).toEqual([ITEMS[0]]);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
  });

  it('rejects withResponse with the same ApiError as awaiting', async () => {
    const bad = client().request({ method: 'GET', path: '/nowhere' });
    await expect(bad.withResponse()).rejects.toThrow('404 Not Found: no route');
    await expect(bad).rejects.toThrow('404 Not Found: no route');
  });
});
