// With HTTP_PROXY set, the Node client goes through the proxy (undici's EnvHttpProxyAgent);
// NO_PROXY exempts hosts. Runs in its own file: the Node transport's pool is per process.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, proxyConfigured } from './node.js';
import { startServer } from './node-testing.js';
import type { TestServer } from './node-testing.js';

let target: TestServer;
let proxy: Server;
let proxyUrl = '';
/** CONNECT targets the proxy was asked to tunnel to. */
const tunnels: string[] = [];
const sockets = new Set<Socket>();
const saved = { ...process.env };

beforeAll(async () => {
  target = await startServer(() => ({ body: [{ id: 'answer' }] }));
  // A minimal forward proxy: tunnels CONNECT requests, which is how undici reaches any target.
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']) delete process.env[name];
});
afterAll(async () => {
  process.env = saved;
  for (const s of sockets) s.destroy();
  await Promise.all([target.close(), new Promise((resolve) => proxy.close(resolve))]);
});

it('sees proxy variables in either case', () => {
  expect(proxyConfigured({})).toBe(false);
  expect(proxyConfigured({ https_proxy: 'http://p:1' })).toBe(true);
  expect(proxyConfigured({ HTTP_PROXY: 'http://p:1' })).toBe(true);
});

it('sends requests through HTTP_PROXY, and straight to hosts in NO_PROXY', async () => {
  process.env.HTTP_PROXY = proxyUrl;
  const client = createClient({ apiKey: 'k', baseUrl: target.url });
  expect(await client.assistant.list({ limit: 1 })).toEqual([{ id: 'answer' }]);
  expect(tunnels).toEqual([target.url.replace('http://', '')]);
  expect(target.requests.at(-1)!.query).toBe('limit=1');
  expect(target.requests.at(-1)!.headers.authorization).toBe('Bearer k');

  // NO_PROXY is read per request: the same client now connects directly, without a tunnel
  // (the old tunnel is closed first, so going through the proxy would have to open a new one).
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => setTimeout(resolve, 50));
  process.env.NO_PROXY = '127.0.0.1';
  const before = target.requests.length;
  expect(await client.assistant.list()).toEqual([{ id: 'answer' }]);
  expect(target.requests.length).toBe(before + 1);
  expect(tunnels.length).toBe(1);
});
