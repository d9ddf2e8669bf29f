// Shared set-up for the web-call browser tests: the fixture page (webcall-fixture/) bundled in
// memory with esbuild and served on a free loopback port, with a record of the paths asked for.
import { build, type BuildOptions } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('./webcall-fixture/', import.meta.url));

/** What is bundled and served besides the fixture's `entry.ts` and its `index.html` at `/`. */
export interface FixtureOptions {
  /** More entry points: output name to a file of webcall-fixture/. */
  entries?: Record<string, string>;
  /** More esbuild options (jsx, define...). */
  build?: BuildOptions;
  /** More HTML pages, by path. */
  pages?: Record<string, string>;
}

/** The fixture served on loopback. */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every path asked for, in order. */
  served: string[];
  close(): Promise<void>;
}

/** Bundles the web-call fixture and serves its pages and chunks; any other path answers 404 (a missing self-hosted bundle, say). */
export async function serveFixture(options: FixtureOptions = {}): Promise<FixtureServer> {
  const entryPoints: Record<string, string> = { entry: join(FIXTURE, 'entry.ts') };
  for (const [name, file] of Object.entries(options.entries ?? {})) entryPoints[name] = join(FIXTURE, file);
  const [bundle, html] = await Promise.all([
    build({ entryPoints, bundle: true, splitting: true, format: 'esm', platform: 'browser', target: 'es2022', outdir: '/out', write: false, logLevel: 'silent', ...options.build }),
    readFile(join(FIXTURE, 'index.html')),
  ]);
  const files = new Map((bundle.outputFiles ?? []).map((file) => [file.path.replace(/^\/out/, ''), file.contents]));
  const pages = new Map<string, string | Buffer>([['/', html], ...Object.entries(options.pages ?? {})]);
  const served: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    served.push(path);
    const page = pages.get(path);
    const body = page ?? files.get(path);
    if (!body) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': page ? 'text/html' : 'text/javascript', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, served, close: () => new Promise<void>((done) => server.close(() => done())) };
}
