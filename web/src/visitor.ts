// Reads the visitor record through the PostgREST protocol: the hosted database when one is
// configured, the local endpoint `voice demo` serves otherwise. One attempt, bounded in time.
import { PostgrestClient } from '@supabase/postgrest-js';
import type { DemoConfig } from './config.js';

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

/** The slug is the first path segment; an empty path means 'default'. */
export function slugFromPath(pathname: string): string {
  const first = pathname.split('/').find((part) => part !== '') ?? '';
  try {
    return decodeURIComponent(first) || 'default';
  } catch {
    return first || 'default';
  }
}

/** How long the lookup may take before the page falls back. */
export const LOOKUP_TIMEOUT_MS = 5000;

/** How a lookup ended: a row, no row, or a failure (network, timeout, server error). */
export type LookupStatus = 'found' | 'missing' | 'failed';

/** Looks the visitor up; never throws: no row or failure carries the fallback visitor. */
export async function loadVisitor(
  slug: string,
  config: Pick<DemoConfig, 'supabaseUrl' | 'supabaseAnonKey'>,
  origin: string = location.origin,
): Promise<{ visitor: Visitor; status: LookupStatus }> {
  try {
    const base = (config.supabaseUrl || origin).replace(/\/+$/, '');
    const key = config.supabaseAnonKey;
    const db = new PostgrestClient(`${base}/rest/v1`, {
      headers: key ? { apikey: key, Authorization: `Bearer ${key}` } : {},
      retry: false,
    });
    const { data, error } = await db
      .from('visitors')
      .select('name,system,first_message,slug')
      .eq('slug', slug)
      .limit(1)
      .setHeader('x-visitor-slug', slug)
      .abortSignal(AbortSignal.timeout(LOOKUP_TIMEOUT_MS))
      .maybeSingle();
    if (error) throw new Error(error.message);
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
