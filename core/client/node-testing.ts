// Test support: a loopback HTTP server on 127.0.0.1 (port 0) that records every request and
// answers through a handler the test supplies. Used by the client's tests only.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient as createBrowserClient } from './index.js';
import type { Client, ClientOptions } from './index.js';
import { createClient, nodeTransport } from './node.js';

/** One request as the server saw it. */
export interface Recorded {
  method: string;
  /** The raw path, still percent-encoded, without the query. */
  path: string;
  /** The raw query string without `?` ('' when none). */
  query: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** Answers a recorded request; may also write to `res` itself (then return undefined). */
export type Handler = (req: Recorded, res: ServerResponse, raw: IncomingMessage) => Reply | undefined | Promise<Reply | undefined>;

/** A canned reply. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as they are. */
  body?: unknown;
}

/** A running loopback server. */
export interface TestServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** Starts a recording server; the default handler answers 200 `{}`. */
export async function startServer(handler: Handler = () => ({ body: {} })): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const url = raw.url ?? '/';
      const q = url.indexOf('?');
      const rec: Recorded = {
        method: raw.method ?? '',
        path: q < 0 ? url : url.slice(0, q),
        query: q < 0 ? '' : url.slice(q + 1),
        headers: raw.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(rec);
      void Promise.resolve(handler(rec, res, raw)).then((reply) => {
        if (!reply || res.headersSent || res.destroyed) return;
        const isText = typeof reply.body === 'string';
        const isBytes = reply.body instanceof Uint8Array;
        const text = reply.body === undefined ? '' : isText || isBytes ? (reply.body as string | Uint8Array) : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, {
          ...(reply.body === undefined ? {} : { 'content-type': isBytes ? 'application/octet-stream' : isText ? 'text/plain' : 'application/json' }),
          ...reply.headers,
        });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Parses a recorded multipart body with the platform's own parser. */
export async function formOf(rec: Recorded): Promise<FormData> {
  const request = new Request('http://test.invalid/', {
    method: 'POST',
    headers: { 'content-type': String(rec.headers['content-type']) },
    body: new Uint8Array(rec.body),
  });
  return request.formData();
}

/** The three ways a client can reach the wire, for tests that must hold on each. */
export const TRANSPORTS = ['fetch', 'http', 'undici'] as const;

/** A client on one transport: the browser entry's fetch, or the Node transport pinned to a path. */
export function clientOn(kind: (typeof TRANSPORTS)[number], options: ClientOptions): Client {
  if (kind === 'fetch') return createBrowserClient(options);
  return createClient({ ...options, transport: nodeTransport({ mode: kind }) });
}
