// Test helpers: a loopback server standing in for the developer's, recording what it receives
// and answering through a handler the test gives.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VoiceError } from '../../errors.js';

/** One request the stand-in server received. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  message: Record<string, unknown> & { type: string };
}

/** What the handler returns: a JSON body, or raw text, a status and an optional delay (ms); or no answer at all. */
export interface HookAnswer {
  status?: number;
  json?: unknown;
  text?: string;
  delayMs?: number;
  /** Never answer (the connection stays open until the emulator gives up). */
  hang?: boolean;
  /** Reset the connection instead of answering. */
  reset?: boolean;
}

/** A running stand-in server. */
export interface Hook {
  url: string;
  received: Received[];
  /** The message types received, in order (optionally of one call). */
  types(callId?: string): string[];
  close(): Promise<void>;
}

/** Starts a stand-in server on 127.0.0.1 (port 0); `backlog` is its listen queue (Node's default 511). */
export async function startHook(answer: (r: Received) => HookAnswer | undefined = () => undefined, backlog?: number): Promise<Hook> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let message: Received['message'] = { type: '(not JSON)' };
      try {
        message = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: Received['message'] }).message;
      } catch {
        // recorded as not JSON
      }
      const r: Received = { path: req.url ?? '/', headers: req.headers, message };
      received.push(r);
      const out = answer(r) ?? {};
      if (out.hang) return;
      if (out.reset) return void req.socket.destroy();
      const send = (): void => {
        if (res.destroyed) return;
        const body = out.text ?? JSON.stringify(out.json ?? {});
        res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
        res.end(body);
      };
      if (out.delayMs) setTimeout(send, out.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((ok) => server.listen({ port: 0, host: '127.0.0.1', ...(backlog ? { backlog } : {}) }, ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    types: (callId) => received.filter((r) => !callId || (r.message.call as { id?: string } | undefined)?.id === callId).map((r) => r.message.type),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** Polls `fn` every 20 ms until it gives a value (not undefined); fails after `ms`. */
export async function until<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new VoiceError(`timed out after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
