// The local visitors endpoint: answers the PostgREST requests the demo page makes
// (`GET /rest/v1/visitors?select=...&slug=eq.<slug>&limit=1`) from a JSON file, so the page
// has one code path for the hosted database and for `voice demo` on a laptop.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LiveVisitorsFile } from './file-store.js';
import type { Visitor } from './model.js';

const COLUMNS = ['slug', 'name', 'system', 'first_message'] as const;

/** A PostgREST-shaped error body. */
function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { code, details: null, hint: null, message });
}

function send(res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(data);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** Applies the PostgREST filters the page (and `curl`) use: `col=eq.value`, `select`, `limit`. */
export function queryVisitors(rows: Visitor[], params: URLSearchParams, visitorSlugHeader: string | undefined): Record<string, string>[] | string {
  const select = (params.get('select') ?? '*')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const columns = select.includes('*') ? [...COLUMNS] : select;
  const unknown = columns.find((c) => !(COLUMNS as readonly string[]).includes(c));
  if (unknown) return `column visitors.${unknown} does not exist`;
  // Same rule as the hosted row-level-security policy: only the row named by x-visitor-slug.
  let out = rows.filter((r) => r.slug === visitorSlugHeader);
  for (const [key, value] of params) {
    if (key === 'select' || key === 'limit' || key === 'offset' || key === 'order') continue;
    if (!(COLUMNS as readonly string[]).includes(key)) return `column visitors.${key} does not exist`;
    if (!value.startsWith('eq.')) return `unsupported filter "${key}=${value}" (the local endpoint knows eq. only)`;
    const want = value.slice(3);
    out = out.filter((r) => r[key as (typeof COLUMNS)[number]] === want);
  }
  const limit = Number(params.get('limit') ?? Infinity);
  const offset = Number(params.get('offset') ?? 0);
  out = out.slice(offset, Number.isFinite(limit) ? offset + limit : undefined);
  return out.map((r) => Object.fromEntries(columns.map((c) => [c, r[c as (typeof COLUMNS)[number]]])));
}

/** Connect-style middleware serving `GET|HEAD <prefix>/visitors` (prefix `/rest/v1`). */
export function visitorsMiddleware(store: Pick<LiveVisitorsFile, 'all'>, prefix = '/rest/v1') {
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(`${prefix}/`)) return next();
    if (url.pathname !== `${prefix}/visitors`) return sendError(res, 404, '42P01', `relation "public.${url.pathname.slice(prefix.length + 1)}" does not exist`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, '42501', 'permission denied for table visitors (the local endpoint is read-only)');
    let rows: Record<string, string>[] | string;
    try {
      const header = req.headers['x-visitor-slug'];
      rows = queryVisitors(store.all(), url.searchParams, Array.isArray(header) ? header[0] : header);
    } catch (err) {
      return sendError(res, 500, 'XX000', (err as Error).message);
    }
    if (typeof rows === 'string') return sendError(res, 400, '42703', rows);
    const range = rows.length === 0 ? '*/*' : `0-${rows.length - 1}/*`;
    if ((req.headers.accept ?? '').includes('application/vnd.pgrst.object+json')) {
      if (rows.length !== 1) return sendError(res, 406, 'PGRST116', `JSON object requested, multiple (or no) rows returned (${rows.length})`);
      return send(res, 200, rows[0], { 'content-range': range });
    }
    send(res, 200, rows, { 'content-range': range });
  };
}
