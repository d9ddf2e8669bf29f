import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { RequestGuard, isSimpleRequest, normaliseOrigin, parseHost } from './guard.js';

/** A request as the guard sees it: headers, a method, and the local port it came in on. */
function req(headers: Record<string, string>, method = 'POST', localPort = 4390): IncomingMessage {
  return { method, headers: { host: `127.0.0.1:${localPort}`, ...headers }, socket: { localPort } } as unknown as IncomingMessage;
}

describe('RequestGuard', () => {
  const loopback = new RequestGuard({ pages: 'loopback', name: 'the emulator', originFlag: '--cors-origin' });
  const self = new RequestGuard({ pages: 'self', exactPort: true, name: 'voice mcp', originFlag: '--allow-origin' });
  const none = new RequestGuard({ pages: 'none', hosts: ['abc.ngrok.app'], hostFlag: '--allow-host' });

  it('refuses a Host that could have been rebound, and passes loopback names and IP addresses', () => {
    for (const host of ['evil.example:4390', 'localhost.evil.example:4390', '127.0.0.1.nip.io:4390']) {
      expect(loopback.check(req({ host }))?.check, host).toBe('host');
    }
    for (const host of ['127.0.0.1:4390', 'localhost:4390', '[::1]:4390', 'app.localhost:4390', '192.168.1.20:4390', '[fe80::1]:4390']) {
      expect(loopback.check(req({ host })), host).toBeUndefined();
    }
    expect(none.check(req({ host: 'abc.ngrok.app' }))).toBeUndefined();
    expect(none.check(req({ host: 'other.ngrok.app' }))?.message).toContain('--allow-host other.ngrok.app');
  });

  it('checks the port in Host, and only loopback names, when asked to (one known address)', () => {
    expect(self.check(req({ host: 'localhost:4390' }))).toBeUndefined();
    expect(self.check(req({ host: 'localhost:5000' }))?.check).toBe('host');
    expect(loopback.check(req({ host: 'localhost:5000' }))).toBeUndefined();
    const mcp = new RequestGuard({ pages: 'self', exactPort: true, loopbackOnly: true });
    expect(mcp.check(req({ host: '[::1]:4390' }))).toBeUndefined();
    expect(mcp.check(req({ host: '192.168.1.20:4390' }))?.message).toContain('answers only localhost, 127.0.0.1 and [::1]');
  });

  it('does not check Host names on a server bound to every interface', () => {
    const open = new RequestGuard({ pages: 'loopback', bind: '0.0.0.0' });
    expect(open.check(req({ host: 'devbox.internal:4010' }))).toBeUndefined();
  });

  it('lets each policy answer its own pages only', () => {
    const page = (origin: string) => req({ origin });
    expect(loopback.check(page('http://localhost:5173'))).toBeUndefined();
    expect(loopback.check(page('https://evil.example'))?.message).toContain('--cors-origin https://evil.example');
    expect(self.check(page('http://127.0.0.1:4390'))).toBeUndefined();
    expect(self.check(page('http://localhost:4390'))).toBeUndefined();
    expect(self.check(page('http://localhost:5173'))?.check).toBe('origin');
    expect(none.check(page('http://127.0.0.1:4390'))?.check).toBe('origin');
    expect(none.check(page('null'))?.check).toBe('origin');
    const named = new RequestGuard({ pages: 'self', origins: ['http://localhost:6274'] });
    expect(named.check(page('http://localhost:6274'))).toBeUndefined();
  });

  it('answers any page for public-key operations, except a request sent without a preflight', () => {
    const json = req({ origin: 'https://shop.example', 'content-type': 'application/json' });
    expect(loopback.check(json, true)).toBeUndefined();
    const plain = req({ origin: 'https://shop.example', 'content-type': 'text/plain' });
    expect(loopback.check(plain, true)?.check).toBe('simple');
    expect(loopback.check(plain, false)?.check).toBe('origin');
  });

  it('refuses a page-made request that carries no Origin but says it is cross-site', () => {
    expect(none.check(req({ 'sec-fetch-site': 'cross-site' }, 'GET'))?.check).toBe('origin');
    expect(none.check(req({ 'sec-fetch-site': 'none' }, 'GET'))).toBeUndefined();
    expect(self.check(req({ 'sec-fetch-site': 'same-site' }))?.check).toBe('origin');
    expect(self.check(req({ 'sec-fetch-site': 'cross-site' }, 'GET'))).toBeUndefined();
    expect(loopback.check(req({ 'sec-fetch-site': 'same-site' }))).toBeUndefined();
    // curl, the CLI, the platform: no Origin, no fetch metadata.
    expect(none.check(req({}))).toBeUndefined();
  });
});

describe('helpers', () => {
  it('reads Host headers, IPv6 included', () => {
    expect(parseHost('[::1]:4010')).toEqual({ name: '::1', port: 4010 });
    expect(parseHost('Example.COM')).toEqual({ name: 'example.com', port: undefined });
  });

  it('knows which requests a browser sends without a preflight', () => {
    expect(isSimpleRequest(req({ 'content-type': 'text/plain;charset=UTF-8' }))).toBe(true);
    expect(isSimpleRequest(req({}))).toBe(true);
    expect(isSimpleRequest(req({ 'content-type': 'application/json' }))).toBe(false);
    expect(isSimpleRequest(req({ authorization: 'Bearer x', 'content-type': 'text/plain' }))).toBe(false);
    expect(isSimpleRequest(req({}, 'DELETE'))).toBe(false);
  });

  it('normalises origins and refuses paths', () => {
    expect(normaliseOrigin('HTTPS://App.Example:443/')).toBe('https://app.example');
    expect(() => normaliseOrigin('https://app.example/x')).toThrow('leave out the path');
  });
});
