// OAuth2 client credentials (RFC 6749, section 4.4) for a custom-llm credential's authenticationPlan:
// a token fetched from the plan's url, reused until shortly before it expires.
import type { Json } from '../messages/index.js';

interface Cached {
  token: string;
  expiresAt: number;
}

/** Fetches and caches client-credentials tokens, one per plan. */
export class OAuth2Tokens {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly fetcher: typeof fetch,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A token for the plan, or why none could be had. */
  async token(plan: Json, signal?: AbortSignal): Promise<{ token: string } | { error: string }> {
    const url = typeof plan.url === 'string' ? plan.url : '';
    const key = `${url}\n${String(plan.clientId)}\n${String(plan.scope ?? '')}`;
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > this.clock()) return { token: cached.token };
    if (!url || typeof plan.clientId !== 'string' || typeof plan.clientSecret !== 'string') {
      return { error: 'the custom-llm credential has an OAuth2 plan without url, clientId or clientSecret' };
    }
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: plan.clientId, client_secret: plan.clientSecret });
    if (typeof plan.scope === 'string' && plan.scope) form.set('scope', plan.scope);
    let res: Response;
    try {
      res = await this.fetcher(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      const e = err as { cause?: { code?: string }; message?: string };
      return { error: `the OAuth2 token endpoint ${url} could not be reached: ${e.cause?.code ?? e.message ?? String(err)}` };
    }
    const text = await res.text().catch(() => '');
    let json: Json = {};
    try {
      json = JSON.parse(text) as Json;
    } catch {
      // reported below
    }
    if (!res.ok || typeof json.access_token !== 'string') {
      return { error: `the OAuth2 token endpoint ${url} answered HTTP ${res.status} without an access_token${text ? `: ${text.slice(0, 200)}` : ''}` };
    }
    const seconds = typeof json.expires_in === 'number' ? json.expires_in : 3600;
    // Renewed a little early so a request never carries a token that expires on the way.
    this.cache.set(key, { token: json.access_token, expiresAt: this.clock() + Math.max(0, seconds - 30) * 1000 });
    return { token: json.access_token };
  }
}
