// The visitor slug is the first segment of the address path (spec 2); an empty path uses 'default'.
// The lookup is one PostgREST GET; a failure is the page's fallback, never an exception.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadVisitor, selectVisitor, slugFromPath } from './visitor.js';

const ROW = { name: 'Acme Corp', system: 'You are Acme.', first_message: 'Hello Acme.', slug: 'acme' };

function answer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('slugFromPath', () => {
  it('uses the first segment of a multi-segment path', () => {
    expect(slugFromPath('/acme/extra')).toBe('acme');
    expect(slugFromPath('/acme/extra/more/')).toBe('acme');
    expect(slugFromPath('//acme/extra')).toBe('acme');
  });

  it('uses default for an empty path', () => {
    expect(slugFromPath('/')).toBe('default');
    expect(slugFromPath('')).toBe('default');
  });

  it('decodes the segment, and keeps it as it is when it cannot be decoded', () => {
    expect(slugFromPath('/caf%C3%A9/x')).toBe('café');
    expect(slugFromPath('/bad%E0%A4%A/x')).toBe('bad%E0%A4%A');
  });
});

describe('selectVisitor', () => {
  it('asks for the slug with the configured database and key', async () => {
    const fetch = vi.fn(async () => answer([ROW]));
    vi.stubGlobal('fetch', fetch);
    expect(await selectVisitor('acme', { supabaseUrl: 'https://db.example.test/', supabaseAnonKey: 'anon' }, 'http://127.0.0.1:5173')).toEqual(ROW);
    const [url, init] = fetch.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.href).toBe('https://db.example.test/rest/v1/visitors?select=name%2Csystem%2Cfirst_message%2Cslug&slug=eq.acme&limit=1');
    expect(init.headers).toEqual({ Accept: 'application/json', 'x-visitor-slug': 'acme', apikey: 'anon', Authorization: 'Bearer anon' });
  });

  it("uses the page's own origin when no database is configured, and answers null for no row", async () => {
    const fetch = vi.fn(async () => answer([]));
    vi.stubGlobal('fetch', fetch);
    expect(await selectVisitor('default', {}, 'http://127.0.0.1:5173')).toBeNull();
    const [url, init] = fetch.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.href).toBe('http://127.0.0.1:5173/rest/v1/visitors?select=name%2Csystem%2Cfirst_message%2Cslug&slug=eq.default&limit=1');
    expect(init.headers).toEqual({ Accept: 'application/json', 'x-visitor-slug': 'default' });
  });
});

describe('loadVisitor', () => {
  it('answers the row it found, asking once', async () => {
    const fetch = vi.fn(async () => answer([ROW]));
    vi.stubGlobal('fetch', fetch);
    expect(await loadVisitor('acme', { supabaseUrl: '', supabaseAnonKey: '' }, 'http://127.0.0.1:5173')).toEqual({ visitor: ROW, status: 'found' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('falls back to Visitor when the lookup fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ message: 'down' }, 503)),
    );
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await loadVisitor('acme', { supabaseUrl: '', supabaseAnonKey: '' }, 'http://127.0.0.1:5173')).toEqual({
      visitor: { name: 'Visitor', system: '', first_message: '', slug: 'acme' },
      status: 'failed',
    });
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });

  it('greets Visitor when there is no row', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer([])),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect((await loadVisitor('globex', { supabaseUrl: '', supabaseAnonKey: '' }, 'http://127.0.0.1:5173')).status).toBe('missing');
    warn.mockRestore();
  });
});
