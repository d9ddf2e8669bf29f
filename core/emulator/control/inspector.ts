// The inspector page's files, served from the folder `voice dev` names (built at build time;
// read from disk only when a file is asked for, so an emulator nobody inspects never reads them).
import { CONTROL_PATHS } from './paths.js';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { HttpError } from '../errors.js';

/** Where the inspector is served. */
export const INSPECTOR_PATH = CONTROL_PATHS.inspector;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

// Its own origin only: no third-party host, no inline script, and never inside another site's frame
// (its buttons end calls and re-send messages).
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Serves a file of the inspector from `dir`; `path` starts with `/__voice/inspector`. */
export async function serveInspector(req: IncomingMessage, res: ServerResponse, dir: string, path: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, `Use GET ${path}`);
  if (path === INSPECTOR_PATH.slice(0, -1)) {
    res.writeHead(308, { location: INSPECTOR_PATH }).end();
    return;
  }
  let rel: string;
  try {
    rel = decodeURIComponent(path.slice(INSPECTOR_PATH.length)) || 'index.html';
  } catch {
    throw new HttpError(400, 'Malformed URL: bad percent-encoding in the path');
  }
  const file = normalize(join(dir, rel));
  if (!file.startsWith(normalize(dir + sep)) || rel.includes('\0')) throw new HttpError(404, `Cannot GET ${path}`);
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    throw new HttpError(404, `Cannot GET ${path}`);
  }
  const hashed = rel.startsWith('assets/');
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
