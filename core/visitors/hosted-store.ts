// The hosted `visitors` table with the service-role key, which bypasses row-level security:
// this is the admin path (`voice visitor`), never the page's. It uses supabase-js's own query
// client (@supabase/postgrest-js) directly: `createClient` from supabase-js also builds a realtime
// client, which throws on Node 20 without a WebSocket package, and we only need the table.
import type { PostgrestClient } from '@supabase/postgrest-js';
import { VisitorError } from './errors.js';
import type { Visitor, VisitorPatch } from './model.js';
import type { VisitorStore } from './store.js';
import { VoiceError } from '../errors.js';

/** How to reach the hosted database. */
export interface HostedStoreOptions {
  /** Project URL, e.g. `https://abc.supabase.co` (PostgREST at `<url>/rest/v1`). */
  url: string;
  /** The service-role key (secret; never ship it to a page). */
  serviceRoleKey: string;
  /** Injected fetch, for tests. */
  fetch?: typeof fetch;
}

const COLUMNS = 'slug,name,system,first_message,created_at,updated_at';
const PAGE = 1000;
const MIGRATION_HINT = 'Create the table first: `supabase db push` (or psql -f supabase/migrations/*_visitors.sql).';

interface Outcome<T> {
  data: T | null;
  error: { message: string; code?: string; details?: string | null; hint?: string | null } | null;
  status: number;
}

/** A VisitorStore over the hosted table; the query client is loaded only when this is called. */
export async function createHostedVisitorStore(options: HostedStoreOptions): Promise<VisitorStore> {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new VisitorError('invalid', `The hosted database URL ${JSON.stringify(options.url)} is not a URL.`, 'Example: https://abcdefgh.supabase.co');
  }
  const { PostgrestClient } = await import('@supabase/postgrest-js');
  const key = options.serviceRoleKey;
  const client = new PostgrestClient(`${url.href.replace(/\/+$/, '')}/rest/v1`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return new HostedVisitorStore(client, url.origin);
}

class HostedVisitorStore implements VisitorStore {
  readonly hosted = true;
  constructor(
    private readonly db: PostgrestClient,
    readonly location: string,
  ) {}

  async list(): Promise<Visitor[]> {
    // Supabase caps a response at 1000 rows by default: page until a short page.
    const all: Visitor[] = [];
    for (let from = 0; ; from += PAGE) {
      const page = this.check<Visitor[]>(
        await this.db
          .from('visitors')
          .select(COLUMNS)
          .order('slug')
          .range(from, from + PAGE - 1),
      );
      all.push(...page);
      if (page.length < PAGE) return all;
    }
  }

  async get(slug: string): Promise<Visitor | undefined> {
    const rows = this.check<Visitor[]>(await this.db.from('visitors').select(COLUMNS).eq('slug', slug).limit(1));
    return rows[0];
  }

  async create(visitors: Visitor[]): Promise<Visitor[]> {
    const rows = visitors.map(({ slug, name, system, first_message }) => ({ slug, name, system, first_message }));
    const created = this.check<Visitor[]>(await this.db.from('visitors').insert(rows).select(COLUMNS));
    return order(
      created,
      visitors.map((v) => v.slug),
    );
  }

  async update(patches: VisitorPatch[]): Promise<Visitor[]> {
    await this.requireAll(patches.map((p) => p.slug));
    const out: Visitor[] = [];
    for (const { slug, ...fields } of patches) {
      const rows = this.check<Visitor[]>(await this.db.from('visitors').update(fields).eq('slug', slug).select(COLUMNS));
      if (!rows[0]) throw this.missing([slug]);
      out.push(rows[0]);
    }
    return out;
  }

  async delete(slugs: string[]): Promise<void> {
    await this.requireAll(slugs);
    this.check(await this.db.from('visitors').delete().in('slug', slugs).select('slug'));
  }

  private async requireAll(slugs: string[]): Promise<void> {
    const found = this.check<Array<{ slug: string }>>(await this.db.from('visitors').select('slug').in('slug', slugs));
    const missing = slugs.filter((s) => !found.some((row) => row.slug === s));
    if (missing.length > 0) throw this.missing(missing);
  }

  private missing(slugs: string[]): VisitorError {
    return new VisitorError('not-found', `No visitor ${slugs.join(', ')} in the hosted table at ${this.location}.`, 'See `voice visitor list`.');
  }

  /** Turns a PostgREST outcome into data or a VisitorError a person can act on. */
  private check<T>(outcome: Outcome<unknown>): T {
    const { error, status } = outcome;
    if (!error) return (outcome.data ?? []) as T;
    const code = error.code ?? '';
    const where = `the hosted table at ${this.location}`;
    if (status === 0) throw new VisitorError('store', `Could not reach ${this.location}: ${error.message}`, 'Check VOICE_SUPABASE_URL and your network.');
    if (code === '23505') {
      const slug = /\(slug\)=\(([^)]*)\)/.exec(error.details ?? '')?.[1];
      throw new VisitorError('exists', `Visitor${slug ? ` ${slug}` : ''} already exists in ${where}.`, 'Use `voice visitor update` to change it.');
    }
    if (code === '23514' || code === '23502' || code === '22P02') throw new VisitorError('invalid', `${where} refused the visitor: ${error.message}`);
    if (code === '42P01' || code === 'PGRST205' || code === 'PGRST202') throw new VisitorError('store', `There is no visitors table at ${this.location}.`, MIGRATION_HINT);
    if (status === 401 || status === 403 || code === '42501' || code.startsWith('PGRST30')) {
      throw new VisitorError('auth', `${where} refused the key: ${error.message}`, 'Use the service-role key (VOICE_SUPABASE_SERVICE_ROLE_KEY), not the anon key.');
    }
    throw new VisitorError('store', `${where} failed (HTTP ${status}): ${error.message}`);
  }
}

function order(rows: Visitor[], slugs: string[]): Visitor[] {
  return slugs.map((s) => rows.find((r) => r.slug === s)).filter((r): r is Visitor => r !== undefined);
}

/**
 * Looks one visitor up in the hosted table the way the page does (the anon key, the visitor's slug
 * in `x-visitor-slug` for the row-level policy): `voice demo`'s Call Me webhook uses it.
 */
export function hostedVisitorLookup(supabaseUrl: string, anonKey: string | undefined) {
  return async (slug: string): Promise<Visitor | undefined> => {
    const { PostgrestClient } = await import('@supabase/postgrest-js');
    const db = new PostgrestClient(`${supabaseUrl.replace(/\/+$/, '')}/rest/v1`, {
      headers: anonKey ? { apikey: anonKey, Authorization: `Bearer ${anonKey}` } : {},
      retry: false,
    });
    const { data, error } = await db
      .from('visitors')
      .select('name,system,first_message,slug')
      .eq('slug', slug)
      .limit(1)
      .setHeader('x-visitor-slug', slug)
      .abortSignal(AbortSignal.timeout(5000))
      .maybeSingle();
    // An unreachable database is a failure (502), not an unknown visitor (404).
    if (error) throw new VoiceError(`the visitors database answered: ${error.message}`);
    return (data as Visitor | null) ?? undefined;
  };
}
