// The visitor lookup started before the page's script (a static build's HTML starts it): the page
// takes that request for its slug, once, and makes its own otherwise; its failure is the page's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_LOOKUP, loadVisitor, startEarlyLookup, takeEarlyLookup } from './visitor.js';

const ROW = { name: 'Acme Corp', system: 'You are Acme.', first_message: 'Hello Acme.', slug: 'acme' };

function answer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function page(pathname: string): Record<string, unknown> & { location: Location } {
  return { location: { pathname, origin: 'http://127.0.0.1:5173' } as Location };
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as Record<string, unknown>)[EARLY_LOOKUP];
});

describe('startEarlyLookup', () => {
  it('asks for the slug of the address with the configured database and key', async () => {
    const fetch = vi.fn(async () => answer([ROW]));
    vi.stubGlobal('fetch', fetch);
    const scope = page('/acme/extra');
    startEarlyLookup({ supabaseUrl: 'https://db.example.test/', supabaseAnonKey: 'anon' }, scope);
    const [url, init] = fetch.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.href).toBe('https://db.example.test/rest/v1/visitors?select=name%2Csystem%2Cfirst_message%2Cslug&slug=eq.acme&limit=1');
    expect(init.headers).toEqual({ Accept: 'application/json', 'x-visitor-slug': 'acme', apikey: 'anon', Authorization: 'Bearer anon' });
    expect(await takeEarlyLookup('acme', scope)).toEqual(ROW);
  });

  it("uses the page's own origin when no database is configured", () => {
    const fetch = vi.fn(async () => answer([]));
    vi.stubGlobal('fetch', fetch);
    startEarlyLookup(undefined, page('/'));
    const [url, init] = fetch.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.href).toBe('http://127.0.0.1:5173/rest/v1/visitors?select=name%2Csystem%2Cfirst_message%2Cslug&slug=eq.default&limit=1');
    expect(init.headers).toEqual({ Accept: 'application/json', 'x-visitor-slug': 'default' });
  });

  it('keeps a failure for the page instead of reporting it as unhandled', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ message: 'boom' }, 500)),
    );
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    const scope = page('/acme');
    startEarlyLookup(undefined, scope);
    await new Promise((r) => setTimeout(r, 20));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
    await expect(takeEarlyLookup('acme', scope)).rejects.toThrow('boom');
  });
});

describe('takeEarlyLookup', () => {
  it('gives the lookup once, and only for its slug', () => {
    const row = Promise.resolve(ROW);
    const scope: Record<string, unknown> = { [EARLY_LOOKUP]: { slug: 'acme', row } };
    expect(takeEarlyLookup('globex', scope)).toBeUndefined();
    expect(takeEarlyLookup('acme', scope)).toBe(row);
    expect(takeEarlyLookup('acme', scope)).toBeUndefined();
  });
});

describe('loadVisitor with an early lookup', () => {
  it('takes the early answer without asking again', async () => {
    const fetch = vi.fn(async () => answer([ROW]));
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('location', page('/acme').location);
    startEarlyLookup(undefined, globalThis as unknown as Record<string, unknown> & { location: Location });
    expect(await loadVisitor('acme', { supabaseUrl: '', supabaseAnonKey: '' }, 'http://127.0.0.1:5173')).toEqual({ visitor: ROW, status: 'found' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('falls back to Visitor when the early lookup failed, as for its own', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ message: 'down' }, 503)),
    );
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('location', page('/acme').location);
    startEarlyLookup(undefined, globalThis as unknown as Record<string, unknown> & { location: Location });
    expect(await loadVisitor('acme', { supabaseUrl: '', supabaseAnonKey: '' })).toEqual({ visitor: { name: 'Visitor', system: '', first_message: '', slug: 'acme' }, status: 'failed' });
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });

  it('asks itself for another slug', async () => {
    const fetch = vi.fn(async () => answer([]));
    vi.stubGlobal('fetch', fetch);
    (globalThis as Record<string, unknown>)[EARLY_LOOKUP] = { slug: 'acme', row: Promise.resolve(ROW) };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect((await loadVisitor('globex', { supabaseUrl: '', supabaseAnonKey: '' }, 'http://127.0.0.1:5173')).status).toBe('missing');
    expect(fetch).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
