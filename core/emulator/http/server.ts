// The HTTP side: one request listener that matches the compiled routes, checks the key,
// reads the body, runs the handler and writes JSON. Every failure becomes a JSON error;
// nothing a client sends can stop the server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BodyKind } from '../../catalogue/index.js';
import { catalogue, flatten } from '../../catalogue/index.js';
import type { Ctx, Env, Handler, Reply } from './context.js';
import { HttpError } from '../errors.js';
import { handlerFor, nesting } from './handlers.js';
import type { CorsPolicy } from './cors.js';
import { parseJson, parseQuery, readBody, seenBodies, sendJson, sendText } from './io.js';
import type { Query } from './io.js';
import { parseMultipart } from './multipart.js';
import { checkBody, checkForm } from '../resources/schema-check.js';
import type { DataFileWriter } from '../store/persist.js';
import { Router, splitPath } from './router.js';
import { constantTimeEqual } from '../../verify/index.js';
import type { Store } from '../store/store.js';
import type { Entry } from '../../catalogue/index.js';

interface Route {
  entry: Entry;
  handler: Handler;
  params: string[];
  secured: boolean;
  body: BodyKind;
}

/** One line of the request log `voice dev` prints. */
export interface RequestLog {
  method: string;
  path: string;
  status: number;
  ms: number;
  /** The caller's `User-Agent`. */
  userAgent?: string;
  /** For an error answer: the message the caller got. */
  message?: string;
  /** Made by the inspector page (its files, or a request it marked with `x-voice-inspector`). */
  inspector?: boolean;
}

/** What a request carried and got back (for the record; never printed). */
export interface RequestBodyText {
  request?: string;
  response?: string;
}

/** What the request listener needs. */
export interface ListenerOptions {
  store: Store;
  env: Env;
  writer: DataFileWriter | undefined;
  apiKey: string | undefined;
  log: ((line: RequestLog, bodies: RequestBodyText) => void) | undefined;
  /** Which web pages may call it (CORS, and the Host check on loopback). */
  cors: CorsPolicy;
  /** Called for requests no catalogue route matches; return true when it answered. */
  fallback: ((req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>) | undefined;
}

const BEARER = /^bearer\s+(\S+)\s*$/i;

/** Compiles every catalogue operation into a router (done once per server). */
export function compileRoutes(): Router<Route> {
  const entries = flatten(catalogue);
  const children = nesting(entries);
  const router = new Router<Route>();
  for (const entry of entries) {
    const { handler, params } = handlerFor(entry, children);
    router.add(entry.op.method, entry.op.path, { entry, handler, params, secured: entry.op.auth === 'bearer', body: entry.op.body });
  }
  return router;
}

function decode(segs: string[]): string[] {
  try {
    return segs.map((s) => (s.includes('%') ? decodeURIComponent(s) : s));
  } catch {
    throw new HttpError(400, 'Malformed URL: bad percent-encoding in the path');
  }
}

/** Builds the request listener of an emulator. */
export function createListener(opts: ListenerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const router = compileRoutes();
  const { store, env, writer, apiKey, log } = opts;

  const fail = (res: ServerResponse, err: unknown): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) {
      sendJson(res, err.status, err.body(), err.status === 413 ? { connection: 'close' } : undefined);
      return;
    }
    process.stderr.write(`voice emulator: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    sendJson(res, 500, { statusCode: 500, message: `Internal emulator error: ${(err as Error)?.message ?? String(err)}`, error: 'Internal Server Error' });
  };

  const send = (res: ServerResponse, out: Reply): void => {
    if (out.contentType) sendText(res, out.status, Buffer.isBuffer(out.body) ? out.body : String(out.body), out.contentType);
    else sendJson(res, out.status, out.body);
  };

  const reply = (res: ServerResponse, out: Reply): void => {
    if (out.stream) {
      res.writeHead(out.status, { 'content-type': out.contentType ?? 'text/event-stream', 'cache-control': 'no-cache' });
      out
        .stream((chunk) => void res.write(chunk))
        .catch((err: unknown) => void res.write(`data: ${JSON.stringify({ type: 'error', message: (err as Error).message })}\n\n`))
        .then(() => (out.changed && writer ? writer.flush().catch(() => undefined) : undefined))
        .finally(() => res.end());
      return;
    }
    if (out.changed && writer) {
      // A change that could not be written is still made (and kept in memory until the writer
      // manages to write it): the answer says so in a Warning header rather than failing.
      writer.flush().then(
        () => send(res, out),
        (err: unknown) => {
          res.setHeader('warning', `199 voice "not yet saved to the data file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}"`);
          send(res, out);
        },
      );
    } else {
      send(res, out);
    }
  };

  const run = (req: IncomingMessage, res: ServerResponse, route: Route, values: string[], query: Query, raw: Buffer): void | Promise<void> => {
    let body: Record<string, unknown> = {};
    if (route.body === 'multipart') {
      const parsed = parseMultipart(raw, req.headers['content-type']);
      // Forms are checked against their published schema like JSON bodies: an enum is an enum either way.
      return checkForm(route.entry.op.method, route.entry.op.path, parsed).then(() => handle(res, route, values, query, body, parsed));
    } else if (route.body === 'json') {
      body = parseJson(raw);
      // The platform checks a body before anything else happens: nothing is stored when it fails.
      return checkBody(route.entry.op.method, route.entry.op.path, body).then(() => handle(res, route, values, query, body, undefined));
    }
    handle(res, route, values, query, body, undefined);
  };

  const handle = (res: ServerResponse, route: Route, values: string[], query: Query, body: Record<string, unknown>, form: Ctx['form']): void => {
    const params: Record<string, string> = {};
    for (let i = 0; i < values.length; i++) params[route.params[i] as string] = values[i] as string;
    const out = route.handler({ entry: route.entry, params, query, body, form, store, env });
    if (out instanceof Promise)
      out.then(
        (o) => reply(res, o),
        (err: unknown) => fail(res, err),
      );
    else reply(res, out);
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const url = req.url ?? '/';
    const qAt = url.indexOf('?');
    const path = qAt < 0 ? url : url.slice(0, qAt);
    const method = req.method ?? 'GET';
    const segs = decode(splitPath(path));
    if (method === 'OPTIONS') {
      const wanted = router.match(String(req.headers['access-control-request-method'] ?? 'GET').toUpperCase(), segs);
      return opts.cors.preflight(req, res, Boolean(wanted?.route.entry.op.browser));
    }
    const match = router.match(method, segs);
    opts.cors.admit(req, res, Boolean(match?.route.entry.op.browser));
    if (!match) return notMatched(req, res, method, path);
    const { route, values } = match;
    if (route.secured) authorize(req.headers.authorization, apiKey);
    const query = parseQuery(qAt < 0 ? '' : url.slice(qAt + 1));
    if (route.body === 'none') return run(req, res, route, values, query, Buffer.alloc(0));
    return readBody(req).then((raw) => run(req, res, route, values, query, raw));
  };

  const notMatched = async (req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> => {
    if (opts.fallback && (await opts.fallback(req, res))) return;
    throw new HttpError(404, `Cannot ${method} ${path}`);
  };

  return (req, res) => {
    if (log) {
      const started = performance.now();
      res.once('finish', () => log(requestLine(req, res, performance.now() - started), { request: seenBodies.get(req)?.toString(), response: seenBodies.get(res)?.toString() }));
    }
    try {
      const pending = dispatch(req, res);
      if (pending) pending.catch((err: unknown) => fail(res, err));
    } catch (err) {
      fail(res, err);
    }
  };
}

function errorMessage(res: ServerResponse): string | undefined {
  if (res.statusCode < 400) return undefined;
  const body = seenBodies.get(res);
  if (typeof body !== 'string') return undefined;
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

function requestLine(req: IncomingMessage, res: ServerResponse, ms: number): RequestLog {
  const path = req.url ?? '';
  const line: RequestLog = { method: req.method ?? '', path, status: res.statusCode, ms };
  const ua = req.headers['user-agent'];
  if (ua) line.userAgent = ua;
  const message = errorMessage(res);
  if (message) line.message = message;
  if (req.headers['x-voice-inspector'] !== undefined || path.startsWith('/__voice/inspector')) line.inspector = true;
  return line;
}

/** Throws a 401 unless the header carries a bearer token (exactly `apiKey` when one is set). */
export function authorize(header: string | undefined, apiKey: string | undefined): void {
  if (!header) throw new HttpError(401, 'Missing Authorization header: send "Authorization: Bearer <your API key>"');
  const m = BEARER.exec(header);
  if (!m) throw new HttpError(401, 'Malformed Authorization header: expected "Bearer <your API key>"');
  if (apiKey !== undefined && !constantTimeEqual(m[1] as string, apiKey)) throw new HttpError(401, 'Invalid API key: this emulator was started with an API key and the one sent does not match');
}
