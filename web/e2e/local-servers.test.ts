// Every server of the inventory (cli/servers.ts) against real web pages in Chromium, the two ways
// a page the developer visits reaches a loopback port:
//   - a page on another origin (attacker.test, resolved to 127.0.0.1) that calls the server with
//     fetch, a no-cors text/plain post, a text/plain form, or a WebSocket;
//   - a page reached through a rebinding-style Host: its document comes from "rebind.test:PORT"
//     (PORT being the server's), and its same-origin requests then reach the server with
//     `Host: rebind.test:PORT`, as after a DNS rebinding.
// Each page is even handed the token and the key a legitimate caller has; nothing it sends is
// answered with anything but 403 (seen on the network, not only in the page), and the server does
// nothing (nothing stored, no call placed, nothing forwarded, no socket joined).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SERVERS } from '../../cli/servers.js';
import { startServers } from '../../cli/test/servers.test-support.js';
import type { Action, ServerProbe, Socket } from '../../cli/test/servers.test-support.js';
import { launch } from './demo-harness.js';

let servers: Awaited<ReturnType<typeof startServers>>;
let browser: { browser: Browser; close(): Promise<void> };
/** One page for every attack, left on about:blank between them (a new page, let alone a context, costs up to a second). */
let page: Page;
let attacker: Server;
let attackerPort: number;
/** The page the attacker server serves next (one test at a time). */
let attackPage = '';

/** A page that tries the server's action three ways, or opens its socket; `window.done` says what happened. */
function attackScript(url: string, action: Action | undefined, socket: (Socket & { url: string }) | undefined): string {
  const probes: string[] = [];
  if (action) {
    const json = JSON.stringify;
    probes.push(
      `try { const r = await fetch(${json(url)}, { method: ${json(action.method)}, headers: ${json(action.headers)}${action.body ? `, body: ${json(action.body)}` : ''} }); out.cors = r.status; } catch (e) { out.cors = 'blocked'; }`,
    );
    probes.push(
      `try { const r = await fetch(${json(url)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${json(action.body ?? '{}')} }); out.simple = r.type === 'opaque' ? 'sent' : r.status; } catch (e) { out.simple = 'blocked'; }`,
    );
    probes.push(
      `await new Promise((resolve) => { const f = document.createElement('form'); f.method = 'post'; f.enctype = 'text/plain'; f.action = ${json(url)}; f.target = 'sink'; const i = document.createElement('input'); i.name = 'x'; i.value = ${json(action.body ?? '{}')}; f.append(i); document.body.append(f); document.querySelector('iframe').onload = resolve; f.submit(); setTimeout(resolve, 5000); }); out.form = 'sent';`,
    );
  }
  if (socket) {
    const protocols = socket.protocol ? `, [${JSON.stringify(socket.protocol)}]` : '';
    probes.push(
      `out.socket = await new Promise((resolve) => { const ws = new WebSocket(${JSON.stringify(socket.url)}${protocols}); ws.onopen = () => { ws.close(); resolve('open'); }; ws.onerror = () => resolve('refused'); });`,
    );
  }
  return `<!doctype html><meta charset="utf-8"><title>free prizes</title><iframe name="sink" title="sink"></iframe><script>
window.done = (async () => { const out = {}; ${probes.join('\n')} return out; })();
</script>`;
}

beforeAll(async () => {
  servers = await startServers();
  attacker = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(attackPage));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
  // Chromium's own Local Network Access checks are off: they stop a public page's requests to
  // loopback in this browser, but not in every browser (nor an older Chromium), and what is tried
  // here is whether the servers themselves refuse.
  browser = await launch({
    args: [
      '--host-resolver-rules=MAP attacker.test 127.0.0.1, MAP rebind.test 127.0.0.1',
      '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults',
    ],
  });
  page = await browser.browser.newPage();
}, 180_000);

afterAll(async () => {
  await Promise.all([browser?.close(), servers?.close(), new Promise((resolve) => attacker?.close(resolve))]);
});

/** Opens a page at `pageUrl` running the attack on `base`; resolves with what the page saw and what the network carried. */
async function attack(probe: ServerProbe, pageUrl: string, base: string, fulfil: boolean): Promise<{ seen: Record<string, unknown>; statuses: number[] }> {
  const action = await probe.action?.();
  const socket = await probe.socket?.();
  const url = action ? `${base}${action.path}` : '';
  const html = attackScript(url, action, socket && { ...socket, url: `${base.replace(/^http/, 'ws')}${socket.path}` });
  const statuses: number[] = [];
  const port = new URL(probe.origin).port;
  const onResponse = (r: Response): void => {
    if (new URL(r.url()).port === port && r.url() !== pageUrl) statuses.push(r.status());
  };
  page.on('response', onResponse);
  try {
    if (fulfil) await page.route(pageUrl, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
    else attackPage = html;
    await page.goto(pageUrl);
    const seen = await page.evaluate(() => (window as unknown as { done: Promise<Record<string, unknown>> }).done);
    return { seen, statuses };
  } finally {
    await page.goto('about:blank');
    page.off('response', onResponse);
    await page.unrouteAll();
  }
}

describe.each(LOCAL_SERVERS.map((s) => [s.name]))('%s against web pages', (name) => {
  const probe = (): ServerProbe => servers.probes[name] as ServerProbe;

  it('a page on another origin gets nothing done', async () => {
    const before = await probe().effects?.();
    const { seen, statuses } = await attack(probe(), `http://attacker.test:${attackerPort}/`, probe().origin, false);
    if (probe().action) {
      // The JSON request needs a preflight the server refuses; the simple ones reach it and get 403.
      expect(seen.cors).toBe('blocked');
      expect(seen.simple).toBe('sent');
      expect(statuses.length).toBeGreaterThanOrEqual(2);
    }
    if (probe().socket) expect(seen.socket).toBe('refused');
    expect(
      statuses.every((s) => s === 403),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(await probe().effects?.()).toBe(before);
  }, 60_000);

  it('a page reached through a rebinding-style Host gets 403 for everything, even with the token', async () => {
    const before = await probe().effects?.();
    const base = `http://rebind.test:${new URL(probe().origin).port}`;
    const { seen, statuses } = await attack(probe(), `${base}/__attack__`, base, true);
    if (probe().action) {
      // Same origin for the browser: the page reads the server's answer, and it is 403.
      expect(seen.cors).toBe(403);
      expect(statuses.length).toBeGreaterThanOrEqual(3);
    }
    if (probe().socket) expect(seen.socket).toBe('refused');
    expect(
      statuses.every((s) => s === 403),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(await probe().effects?.()).toBe(before);
  }, 60_000);
});
