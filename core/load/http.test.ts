// The load generator's HTTP client against raw loopback servers answering in each way HTTP/1.1
// allows: by length, in chunks split anywhere, to the close, after an interim answer; kept-alive
// connections reused, a connection the server closed while idle replaced, a refused one reported.
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { ConnectionError } from '../client/errors.js';
import { Origin } from './http.js';

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** A server that reads each request whole (its body as latin1: one character a byte) and writes `answer(n)` (the n-th request on any connection) in the pieces given. */
async function raw(answer: (n: number, body: string) => (string | Buffer)[], after?: (s: Socket, n: number) => void): Promise<{ url: URL; connections: () => number }> {
  let n = 0;
  let connections = 0;
  server = createServer((s) => {
    connections++;
    sockets.add(s);
    let buf = '';
    s.on('data', (d) => {
      buf += d.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const body = buf.slice(end + 4, end + 4 + length);
        buf = buf.slice(end + 4 + length);
        const pieces = answer(++n, body);
        const k = n;
        // Each piece in its own turn, so the client sees the answer split at every boundary given.
        void (async () => {
          for (const p of pieces) {
            s.write(p);
            await new Promise((r) => setTimeout(r, 2));
          }
          after?.(s, k);
        })();
      }
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((ok) => server?.listen(0, '127.0.0.1', ok));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?x=1`), connections: () => connections };
}

const post = (o: Origin, body = '{"a":"é"}') => o.post('/hook?x=1', 'content-type: application/json\r\n', body, () => undefined);

it('reads answers by length, in chunks split anywhere, and after an interim answer, on one kept-alive connection', async () => {
  const s = await raw((n, body) => {
    if (n === 1) return [`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n`, Buffer.from(body, 'latin1')];
    if (n === 2) return ['HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"o', 'k"\r', '\n7;x=y\r\n:true}\n\r\n0\r\n', '\r\n'];
    return ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\nnope'];
  });
  const o = new Origin(s.url, 4);
  expect(await post(o)).toEqual({ status: 200, text: '{"a":"é"}' });
  expect(await post(o)).toEqual({ status: 201, text: '{"ok":true}\n' });
  expect(await post(o)).toEqual({ status: 500, text: 'nope' });
  expect(s.connections()).toBe(1);
  o.close();
});

it('reads an answer to the close, and opens a new connection after one the server closes', async () => {
  const s = await raw(
    (n) => (n === 1 ? ['HTTP/1.0 200 OK\r\n\r\n', 'to the ', 'end'] : ['HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n']),
    (sock, n) => n === 1 && sock.end(),
  );
  const o = new Origin(s.url, 4);
  expect(await post(o)).toEqual({ status: 200, text: 'to the end' });
  expect(await post(o)).toEqual({ status: 204, text: '' });
  expect(await post(o)).toEqual({ status: 204, text: '' });
  expect(s.connections()).toBe(3);
  o.close();
});

it('sends again once on a new connection when a kept-alive one was closed as the request went out', async () => {
  const s = await raw(
    () => ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'],
    // After its first answer the server drops the connection without a word, as an idle timeout does.
    (sock, n) => n === 1 && setTimeout(() => sock.destroy(), 1),
  );
  const o = new Origin(s.url, 1);
  expect(await post(o)).toEqual({ status: 200, text: '{}' });
  expect(await post(o)).toEqual({ status: 200, text: '{}' });
  o.close();
});

it('holds requests beyond its connections until one is free, and reports a refused connection by its code', async () => {
  const s = await raw((n) => [`HTTP/1.1 200 OK\r\ncontent-length: ${String(n).length}\r\n\r\n${n}`]);
  const o = new Origin(s.url, 2);
  const answers = await Promise.all(Array.from({ length: 6 }, () => post(o)));
  expect(answers.map((a) => a.text).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
  expect(s.connections()).toBe(2);
  o.close();
  const port = s.url.port;
  await new Promise<void>((done) => server?.close(() => done()));
  server = undefined;
  const refused = await post(new Origin(new URL(`http://127.0.0.1:${port}/`), 1)).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ConnectionError);
  expect((refused as ConnectionError).code).toBe('ECONNREFUSED');
});
