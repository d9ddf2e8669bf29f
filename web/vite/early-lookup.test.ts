// The early lookup a static build inlines in index.html: a classic script that starts the visitor
// request with the injected configuration, right after the charset (ahead of the stylesheet).
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import type { IndexHtmlTransformHook } from 'vite';
import { describe, expect, it } from 'vitest';
import { earlyLookup, earlyLookupScript } from './early-lookup.js';
import { EARLY_LOOKUP } from '../src/visitor.js';

describe('earlyLookupScript', () => {
  it('starts the lookup with the injected configuration and leaves it for the page, adding no other global', async () => {
    const script = await earlyLookupScript(fileURLToPath(new URL('../src/visitor.ts', import.meta.url)));
    expect(script).not.toMatch(/\bexport\b|\bimport\b|<\/script/i);
    const calls: [URL, RequestInit][] = [];
    const window: Record<string, unknown> = {
      __VOICE_CONFIG__: { supabaseUrl: 'https://db.example.test', supabaseAnonKey: 'anon' },
      location: { pathname: '/acme', origin: 'http://127.0.0.1:8080' },
      fetch: (url: URL, init: RequestInit) => {
        calls.push([url, init]);
        return Promise.resolve(new Response('[{"name":"Acme Corp"}]'));
      },
      URL,
      AbortSignal,
      Object,
      Array,
      Error,
      decodeURIComponent,
    };
    window.window = window;
    const before = Object.keys(window);
    runInNewContext(script, window);
    expect(Object.keys(window).filter((k) => !before.includes(k))).toEqual([EARLY_LOOKUP]);
    expect(calls).toHaveLength(1);
    expect(String(calls[0]?.[0])).toBe('https://db.example.test/rest/v1/visitors?select=name%2Csystem%2Cfirst_message%2Cslug&slug=eq.acme&limit=1');
    expect(calls[0]?.[1].headers).toMatchObject({ 'x-visitor-slug': 'acme', apikey: 'anon' });
    const early = window[EARLY_LOOKUP] as { slug: string; row: Promise<unknown> };
    expect(early.slug).toBe('acme');
    expect(await early.row).toEqual({ name: 'Acme Corp' });
  });
});

describe('earlyLookup plugin', () => {
  const transform = async (html: string): Promise<unknown> => {
    const plugin = earlyLookup();
    (plugin.configResolved as (config: { root: string }) => void)({ root: fileURLToPath(new URL('..', import.meta.url)) });
    const hook = plugin.transformIndexHtml as { handler: IndexHtmlTransformHook };
    return hook.handler.call({} as never, html, { path: '/index.html', filename: 'index.html' });
  };

  it('puts the script right after the charset, before the stylesheet and the page script', async () => {
    const html =
      '<html><head><script>window.__VOICE_CONFIG__={};</script>\n<meta charset="UTF-8" />\n<script type="module" src="/assets/index.js"></script><link rel="stylesheet" href="/assets/index.css"></head></html>';
    const out = String(await transform(html));
    const at = (needle: string): number => out.indexOf(needle);
    expect(at('window.__VOICE_CONFIG__={}')).toBeLessThan(at('<meta charset'));
    expect(at('<meta charset')).toBeLessThan(at(EARLY_LOOKUP));
    expect(at(EARLY_LOOKUP)).toBeLessThan(at('rel="stylesheet"'));
    expect(at(EARLY_LOOKUP)).toBeLessThan(at('/assets/index.js'));
  });

  it('falls back to the top of the head without a charset tag', async () => {
    const out = await transform('<html><head><title>x</title></head></html>');
    expect(out).toEqual([{ tag: 'script', children: expect.stringContaining(EARLY_LOOKUP), injectTo: 'head-prepend' }]);
  });
});
