// Reads the visitor record through the PostgREST protocol: the hosted database when one is
// configured, the local endpoint `voice demo` serves otherwise. One attempt, bounded in time.
// The request (lookup.ts) is one GET, written out rather than through a PostgREST client library:
// it is on the page's first paint, and the library was 5 KiB gzip of the initial JS for this one
// query. A static build starts it from index.html before this script runs; the page takes that one.
import type { DemoConfig } from './config.js';
import { selectVisitor, takeEarlyLookup } from './lookup.js';

export { LOOKUP_TIMEOUT_MS, slugFromPath } from './lookup.js';

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
export async function loadVisitor(
  slug: string,
  config: Pick<DemoConfig, 'supabaseUrl' | 'supabaseAnonKey'>,
  origin: string = location.origin,
): Promise<{ visitor: Visitor; status: LookupStatus }> {
  try {
    const data = await (takeEarlyLookup(slug) ?? selectVisitor(slug, config, origin));
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
