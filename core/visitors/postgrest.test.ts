import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VisitorError } from './errors.js';
import { LiveVisitorsFile } from './file-store.js';
import { parseVisitorsFile } from './model.js';
import { visitorsMiddleware } from './postgrest.js';

const ROWS = [
  { slug: 'acme', name: 'Acme', system: 'sys', first_message: 'hi' },
  { slug: 'globex', name: 'Globex', system: '', first_message: '' },
];

let dir: string;
let file: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voice-visitors-'));
  file = join(dir, 'visitors.json');
  writeFileSync(file, JSON.stringify(ROWS));
  const store = new LiveVisitorsFile(file);
  const mw = visitorsMiddleware(store);
  server = createServer((req, res) => mw(req, res, () => res.writeHead(418).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

describe('local visitors endpoint', () => {
  it('answers the page query with the selected columns of the one row', async () => {
    const res = await get('/rest/v1/visitors?select=name,system,first_message,slug&slug=eq.acme&limit=1', { 'x-visitor-slug': 'acme' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ name: 'Acme', system: 'sys', first_message: 'hi', slug: 'acme' }]);
  });

  it('answers an empty array for an unknown slug', async () => {
    const res = await get('/rest/v1/visitors?select=name&slug=eq.nobody', { 'x-visitor-slug': 'nobody' });
    expect(await res.json()).toEqual([]);
  });

  it('shows only the row named by x-visitor-slug, like the hosted policy', async () => {
    expect(await (await get('/rest/v1/visitors?select=slug')).json()).toEqual([]);
    expect(await (await get('/rest/v1/visitors?select=slug', { 'x-visitor-slug': 'globex' })).json()).toEqual([{ slug: 'globex' }]);
  });

  it('answers a single object for the object media type, 406 when there is none', async () => {
    const accept = 'application/vnd.pgrst.object+json';
    expect(await (await get('/rest/v1/visitors?select=name&slug=eq.acme', { 'x-visitor-slug': 'acme', accept })).json()).toEqual({ name: 'Acme' });
    const missing = await get('/rest/v1/visitors?select=name&slug=eq.zzz', { 'x-visitor-slug': 'zzz', accept });
    expect(missing.status).toBe(406);
    expect(((await missing.json()) as { code: string }).code).toBe('PGRST116');
  });

  it('refuses unknown columns, other tables and writes with PostgREST-shaped errors', async () => {
    const badColumn = await get('/rest/v1/visitors?select=password', { 'x-visitor-slug': 'acme' });
    expect(badColumn.status).toBe(400);
    expect(((await badColumn.json()) as { message: string }).message).toContain('password');
    expect((await get('/rest/v1/secrets?select=*')).status).toBe(404);
    expect((await fetch(`${base}/rest/v1/visitors`, { method: 'POST', body: '{}' })).status).toBe(405);
  });

  it('passes other paths on', async () => {
    expect((await get('/acme')).status).toBe(418);
  });

  it('picks up edits to the file without a restart', async () => {
    writeFileSync(file, JSON.stringify([...ROWS, { slug: 'new-one', name: 'New', system: '', first_message: '' }]));
    const res = await get('/rest/v1/visitors?select=name&slug=eq.new-one', { 'x-visitor-slug': 'new-one' });
    expect(await res.json()).toEqual([{ name: 'New' }]);
  });
});

describe('parseVisitorsFile', () => {
  it('names the file and the problem', () => {
    expect(() => parseVisitorsFile('{', 'v.json')).toThrow(/v\.json is not valid JSON/);
    expect(() => parseVisitorsFile('{}', 'v.json')).toThrow(/JSON array/);
    expect(() => parseVisitorsFile('[{"slug":"Bad Slug","name":"x"}]', 'v.json')).toThrow(VisitorError);
    expect(() => parseVisitorsFile('[{"slug":"ok","name":""}]', 'v.json')).toThrow(/name/);
    expect(parseVisitorsFile('[{"slug":"ok","name":"Ok"}]', 'v.json')).toEqual([{ slug: 'ok', name: 'Ok', system: '', first_message: '' }]);
  });

  it('keeps only the visitor fields', () => {
    expect(parseVisitorsFile('[{"slug":"a","name":"A","system":"s","first_message":"f","created_at":"2026-01-01"}]', 'v.json')).toEqual([{ slug: 'a', name: 'A', system: 's', first_message: 'f' }]);
  });

  it('reports a missing file', () => {
    expect(() => new LiveVisitorsFile(join(tmpdir(), 'does-not-exist', 'visitors.json'))).toThrow(/Cannot read/);
  });
});
