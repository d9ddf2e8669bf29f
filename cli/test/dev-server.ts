// A loopback HTTP server standing in for the developer's server in webhook tests: records every
// request (path, headers, parsed body) and answers with what the test's handler returns.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in received. */
export interface Got {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  raw: string;
}

/** What the handler answers: a status and a body (objects are sent as JSON), or a delay first. */
export interface Answer {
  status?: number;
  body?: unknown;
  delayMs?: number;
}

/** A running stand-in server. */
export interface DevServer {
  url: string;
  got: Got[];
  close(): Promise<void>;
}

/** Starts a stand-in that answers each request with `handler(got)`. */
export async function devServer(handler: (got: Got) => Answer = () => ({ body: {} })): Promise<DevServer> {
  const got: Got[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const g = { path: req.url ?? '/', headers: req.headers, body, raw };
      got.push(g);
      const a = handler(g);
      const reply = (): void => {
        if (Buffer.isBuffer(a.body)) {
          res.writeHead(a.status ?? 200, { 'content-type': 'application/octet-stream' });
          res.end(a.body);
          return;
        }
        const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body ?? {});
        res.writeHead(a.status ?? 200, { 'content-type': typeof a.body === 'string' ? 'text/plain' : 'application/json' });
        res.end(text);
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The `message` of a received `{ message }` body. */
export function messageOf(g: Got | undefined): Record<string, unknown> {
  return ((g?.body as { message?: Record<string, unknown> } | undefined)?.message ?? {}) as Record<string, unknown>;
}
