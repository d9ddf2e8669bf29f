// The page's Content-Security-Policy for the ways Test in Browser runs: on the demo's emulator
// (a WebSocket to it), on a hosted platform through Daily (no socket to any emulator), and in a
// static build (never the demo's emulator).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultConfig, type DemoConfig } from '#core/visitors/page-config';
import { contentSecurityPolicy } from './headers.js';
import { securityHostFiles } from './build-run.js';

const page = (over: Partial<DemoConfig>): DemoConfig => ({ ...defaultConfig, ...over });
const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';
/** The WebSocket sources of connect-src other than Daily's. */
const sockets = (csp: string) =>
  directive(csp, 'connect-src')
    .split(' ')
    .filter((s) => /^wss?:/.test(s) && !s.includes('*.'));

describe('the page CSP', () => {
  it("allows the socket of the demo's emulator when Test in Browser runs there, and nothing wider", () => {
    const csp = contentSecurityPolicy(page({ apiBaseUrl: 'http://127.0.0.1:4010', publicKey: 'voice-demo-local', assistantId: 'a', localCalls: true }), { nonce: 'n' });
    expect(sockets(csp)).toEqual(['ws://127.0.0.1:4010']);
    expect(directive(csp, 'connect-src')).toContain('http://127.0.0.1:4010');
    expect(csp).not.toContain('unsafe-');
  });

  it('allows the socket of a loopback API (voice dev), whose web calls are joined at its address', () => {
    const csp = contentSecurityPolicy(page({ apiBaseUrl: 'http://localhost:4999/', publicKey: 'pk', assistantId: 'a' }), { nonce: 'n' });
    expect(sockets(csp)).toEqual(['ws://localhost:4999']);
  });

  it('names no emulator socket for the hosted platform, by default or configured', () => {
    for (const apiBaseUrl of ['', 'https://api.vapi.ai', 'https://api.example.com']) {
      const csp = contentSecurityPolicy(page({ apiBaseUrl, publicKey: 'pk', assistantId: 'a' }), { nonce: 'n' });
      expect(sockets(csp)).toEqual([]);
      expect(directive(csp, 'connect-src')).toContain('wss://*.daily.co');
    }
  });

  it("a static build's host files never allow an emulator's socket, even from a config that used one", () => {
    for (const apiBaseUrl of ['https://api.example.com', 'http://127.0.0.1:4010']) {
      const files = securityHostFiles(page({ supabaseUrl: 'https://db.example.com', apiBaseUrl, localCalls: true }), '<script>x</script>');
      for (const text of Object.values(files)) expect(text).not.toMatch(/wss?:\/\/(?!\*\.)/);
      expect(files._headers).toContain(apiBaseUrl);
    }
  });

  it('a static build allows exactly its own inline scripts and style elements, by hash', () => {
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const html = '<head><script>window.a=1</script><script type="module" src="/x.js"></script><style>p{color:red}</style></head>';
    const headers = securityHostFiles(page({ supabaseUrl: 'https://db.example.com' }), html)._headers ?? '';
    const csp = headers.split('\n').find((l) => l.includes('Content-Security-Policy')) ?? '';
    expect(directive(csp.replace(/^\s*Content-Security-Policy: /, ''), 'script-src').split(' ')).toEqual(expect.arrayContaining(["'self'", sha('window.a=1')]));
    expect(directive(csp.replace(/^\s*Content-Security-Policy: /, ''), 'style-src')).toBe(`style-src 'self' ${sha('p{color:red}')}`);
    expect(directive(contentSecurityPolicy(page({}), { nonce: 'n' }), 'style-src')).toBe("style-src 'self' 'nonce-n'");
  });
});
