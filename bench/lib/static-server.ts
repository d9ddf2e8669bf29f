// A loopback static host for built pages, behaving like a typical CDN: gzip for text, long cache
// for hashed assets, `index.html` for client-side routes, plus optional middleware in front
// (the demo page's visitors endpoint).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Connect-style middleware. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** A running static server. */
export interface StaticServer {
  origin: string;
  close: () => Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface Entry {
  body: Buffer;
  gzip?: Buffer;
  type: string;
}

/** Serves `dir` on 127.0.0.1 at a free port. */
export function serveStatic(dir: string, middleware: Middleware[] = []): Promise<StaticServer> {
  const cache = new Map<string, Entry>();
  const read = (file: string): Entry => {
    let entry = cache.get(file);
    if (!entry) {
      const body = readFileSync(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      entry = { body, type };
      if (/^(text\/|application\/json|image\/svg)/.test(type)) entry.gzip = gzipSync(body, { level: 9 });
      cache.set(file, entry);
    }
    return entry;
  };
  const serveFile = (req: IncomingMessage, res: ServerResponse): void => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = join(dir, normalize(path).replace(/^(\.\.[/\\])+/, ''));
    const isFile = existsSync(file) && statSync(file).isFile();
    if (!isFile) {
      // Client-side routes get the page; missing assets get a 404 like any host.
      if (extname(path)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      file = join(dir, 'index.html');
    }
    const entry = read(file);
    const gzip = entry.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? (entry.gzip as Buffer) : entry.body;
    res.writeHead(200, {
      'content-type': entry.type,
      'content-length': body.length,
      'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = createServer((req, res) => {
    let i = 0;
    const next = (): void => {
      const handler = middleware[i++];
      if (handler) handler(req, res, next);
      else serveFile(req, res);
    };
    try {
      next();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
