import { describe, expect, it } from 'vitest';
import { catalogue, flatten, pathParamNames } from '../../catalogue/index.js';
import { Router, splitPath } from './router.js';

function build(): Router<string> {
  const router = new Router<string>();
  for (const e of flatten(catalogue)) router.add(e.op.method, e.op.path, e.keys.join('.'));
  return router;
}

describe('router', () => {
  const router = build();
  const match = (method: string, path: string) => router.match(method, splitPath(path));

  it('finds every catalogue operation from its own template filled with sample values', () => {
    for (const e of flatten(catalogue)) {
      const names = pathParamNames(e.op.path);
      const path = names.reduce((p, n, i) => p.replace(`{${n}}`, `v${i}`), e.op.path);
      const found = match(e.op.method, path);
      expect(found?.route, `${e.op.method} ${path}`).toBe(e.keys.join('.'));
      expect(found?.values).toEqual(names.map((_, i) => `v${i}`));
    }
  });

  it('prefers literal segments over path values, left to right', () => {
    expect(match('GET', '/org/locations')?.route).toBe('org.get');
    expect(match('GET', '/gohighlevel/locations')?.route).toBe('provider.locations');
    expect(match('GET', '/call/phone')?.route).toBe('call.get');
    expect(match('POST', '/call/phone')?.route).toBe('call.phone');
    expect(match('GET', '/template/pinned')?.route).toBe('template.pinned');
    expect(match('GET', '/template/abc')?.route).toBe('template.get');
    expect(match('POST', '/voice-library/sync')?.route).toBe('voiceLibrary.syncAll');
    expect(match('POST', '/voice-library/sync/11labs')?.route).toBe('voiceLibrary.sync');
    expect(match('GET', '/campaign/paginated')?.route).toBe('campaign.listPaginated');
  });

  it('backtracks to a path value when the literal branch has no route', () => {
    expect(match('POST', '/11labs/voice/clone')?.route).toBe('elevenLabs.clone');
    const search = match('GET', '/11labs/voice/search');
    expect(search?.route).toBe('provider.voiceSearch');
    expect(search?.values).toEqual(['11labs']);
  });

  it('misses unknown paths and wrong methods, and ignores a trailing slash', () => {
    expect(match('GET', '/nope')).toBeUndefined();
    expect(match('PUT', '/call/x')).toBeUndefined();
    expect(match('GET', '/assistant/x/y/z')).toBeUndefined();
    expect(match('GET', '/assistant/')?.route).toBe('assistant.list');
  });

  it('refuses a duplicate template', () => {
    const r = new Router<number>();
    r.add('GET', '/a/{id}', 1);
    expect(() => r.add('GET', '/a/{other}', 2)).toThrow(/duplicate/);
  });
});
