// Reads the visitor record through the PostgREST protocol: the hosted database when one is
// configured, the local endpoint `voice demo` serves otherwise. One attempt, bounded in time.
// The request is one GET, written out rather than through a PostgREST client library: it is on the
// page's first paint, and the library was 5 KiB gzip of the initial JS for this one query.
import type { DemoConfig } from './config.js';

/** How long the lookup may take before the page falls back. */
export const LOOKUP_TIMEOUT_MS = 5000;

/** The database settings the lookup needs (none or an empty URL: this page's origin). */
export type LookupConfig = Partial<Pick<DemoConfig, 'supabaseUrl' | 'supabaseAnonKey'>>;

/** The slug is the first path segment; an empty path means 'default'. */
export function slugFromPath(pathname: string): string {
  const first = pathname.split('/').find((part) => part !== '') ?? '';
  try {
    return decodeURIComponent(first) || 'default';
  } catch {
    return first || 'default';
  }
}

/** `GET /rest/v1/visitors?select=...&slug=eq.<slug>&limit=1`: the row, or null when there is none. */
export async function selectVisitor(slug: string, config: LookupConfig, origin: string): Promise<unknown> {
  const base = (config.supabaseUrl || origin).replace(/\/+$/, '');
  const url = new URL(`${base}/rest/v1/visitors`);
  url.searchParams.set('select', 'name,system,first_message,slug');
  url.searchParams.set('slug', `eq.${slug}`);
  url.searchParams.set('limit', '1');
  const key = config.supabaseAnonKey;
  // The row-level-security policy shows only the row that x-visitor-slug names.
  const headers: Record<string, string> = { Accept: 'application/json', 'x-visitor-slug': slug };
  if (key) Object.assign(headers, { apikey: key, Authorization: `Bearer ${key}` });
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new Error(typeof message === 'string' ? message : `HTTP ${response.status}`);
  }
  if (!Array.isArray(body)) throw new Error('the visitors endpoint did not answer a JSON array');
  return body[0] ?? null;
}

/** A row of the `visitors` table. */
export interface Visitor {
  name: string;
  system: string;
  first_message: string;
  slug: string;
}

/** What the page shows when the lookup finds nothing or fails. */
export function fallbackVisitor(slug: string): Visitor {
  return { name: 'Visitor', system: '', first_message: '', slug };
}

/** How a lookup ended: a row, no row, or a failure (network, timeout, server error). */
export type LookupStatus = 'found' | 'missing' | 'failed';

/** Looks the visitor up; never throws: no row or failure carries the fallback visitor. */
export async function loadVisitor(slug: string, config: LookupConfig, origin: string = location.origin): Promise<{ visitor: Visitor; status: LookupStatus }> {
  try {
    const data = await selectVisitor(slug, config, origin);
    if (!data) {
      console.warn(`No visitor found for slug "${slug}"; greeting as Visitor.`);
      return { visitor: fallbackVisitor(slug), status: 'missing' };
    }
    const row = data as Partial<Visitor>;
    return {
      visitor: { name: text(row.name) || 'Visitor', system: text(row.system), first_message: text(row.first_message), slug },
      status: 'found',
    };
  } catch (err) {
    console.error(`Could not load the visitor "${slug}"; greeting as Visitor.`, err);
    return { visitor: fallbackVisitor(slug), status: 'failed' };
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value == null ? '' : String(value);
}
