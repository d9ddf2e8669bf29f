// The visitor lookup's request, with no imports: the page uses it, and a static build also inlines
// this file into index.html (web/early-lookup.ts), so the request starts while the page's script
// is still downloading instead of after it has run.

/** Where the inlined copy leaves its lookup for the page: `{ slug, row }`. */
export const EARLY_LOOKUP = '__VOICE_LOOKUP__';

/** How long the lookup may take before the page falls back. */
export const LOOKUP_TIMEOUT_MS = 5000;

/** The database settings the lookup needs (empty URL = this page's origin). */
export interface LookupConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

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

/** A lookup started before the page's script ran. */
export interface EarlyLookup {
  slug: string;
  row: Promise<unknown>;
}

/** Starts the lookup for this address and leaves it on `scope` (the inlined copy passes `window`). */
export function startEarlyLookup(config: Partial<LookupConfig> | undefined, scope: Record<string, unknown> & { location: Location }): void {
  const slug = slugFromPath(scope.location.pathname);
  const row = selectVisitor(slug, { supabaseUrl: config?.supabaseUrl ?? '', supabaseAnonKey: config?.supabaseAnonKey ?? '' }, scope.location.origin);
  // Handled by whoever takes it; until then a failure must not be reported as unhandled.
  row.catch(() => undefined);
  scope[EARLY_LOOKUP] = { slug, row } satisfies EarlyLookup;
}

/** Takes the early lookup for this slug, once; undefined when there is none (dev server, other slug). */
export function takeEarlyLookup(slug: string, scope: Record<string, unknown> | undefined = globalThis as unknown as Record<string, unknown>): Promise<unknown> | undefined {
  const early = scope?.[EARLY_LOOKUP] as EarlyLookup | undefined;
  if (!early || early.slug !== slug) return undefined;
  delete scope[EARLY_LOOKUP];
  return early.row;
}
