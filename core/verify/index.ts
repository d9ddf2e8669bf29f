// Signed server messages, as the platform signs them when a server names a webhook credential
// (`server.credentialId`): a bearer token in a header, or an HMAC of the raw body (optionally with
// a timestamp and message id). One module signs (the emulator, `voice trigger`) and verifies (your
// server). Web Crypto only, so it runs in Node 20+, browsers, workers and edge runtimes alike.

/** A bearer authentication plan of a webhook credential. */
export interface BearerPlan {
  type: 'bearer';
  token: string;
  /** Default `Authorization`. */
  headerName?: string;
  /** Default true: the value is `Bearer <token>`. */
  bearerPrefixEnabled?: boolean;
}

/** An HMAC authentication plan of a webhook credential. */
export interface HmacPlan {
  type: 'hmac';
  secretKey: string;
  algorithm: 'sha256' | 'sha512' | 'sha1';
  /** Default `x-signature`. */
  signatureHeader?: string;
  /** Default `x-timestamp`. */
  timestampHeader?: string;
  /** Put before the encoded signature, e.g. `sha256=`. Default none. */
  signaturePrefix?: string;
  /** Default true: the timestamp is signed and sent. */
  includeTimestamp?: boolean;
  /** What is signed: `{body}`, `{timestamp}`, `{method}`, `{url}`, `{svix-id}`. Default `{timestamp}.{body}` (`{body}` without a timestamp). */
  payloadFormat?: string;
  /** When set, a unique message id is sent in this header (and may be signed as `{svix-id}`). */
  messageIdHeader?: string;
  /** Default `hex`. */
  signatureEncoding?: 'hex' | 'base64';
  /** Default false. */
  secretIsBase64?: boolean;
}

/** The authentication plans deliveries are signed with. */
export type AuthenticationPlan = BearerPlan | HmacPlan;

/** Where a message is posted (some payload formats sign them). */
export interface SignTarget {
  url?: string;
  method?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Default a random UUID (only sent when the plan names a `messageIdHeader`). */
  messageId?: string;
}

const ALGORITHMS = { sha256: 'SHA-256', sha512: 'SHA-512', sha1: 'SHA-1' } as const;

/** Whether a value is a plan deliveries can be signed with (bearer or HMAC, with its secret). */
export function isSigningPlan(plan: unknown): plan is AuthenticationPlan {
  if (!plan || typeof plan !== 'object') return false;
  const p = plan as { type?: unknown; token?: unknown; secretKey?: unknown; algorithm?: unknown };
  if (p.type === 'bearer') return typeof p.token === 'string';
  return p.type === 'hmac' && typeof p.secretKey === 'string' && typeof p.algorithm === 'string' && p.algorithm in ALGORITHMS;
}

function base64ToBytes(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function encode(bytes: Uint8Array, encoding: 'hex' | 'base64'): string {
  if (encoding === 'base64') {
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin);
  }
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

async function hmac(plan: HmacPlan, payload: string): Promise<string> {
  const secret = plan.secretIsBase64 ? base64ToBytes(plan.secretKey) : new TextEncoder().encode(plan.secretKey);
  const key = await crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: ALGORITHMS[plan.algorithm] }, false, ['sign']);
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(payload)));
  return `${plan.signaturePrefix ?? ''}${encode(sig, plan.signatureEncoding ?? 'hex')}`;
}

function payloadOf(plan: HmacPlan, body: string, parts: { timestamp: string; method: string; url: string; id: string }): string {
  const signsTime = plan.includeTimestamp !== false;
  const format = plan.payloadFormat ?? (signsTime ? '{timestamp}.{body}' : '{body}');
  // One pass, so a body containing `{timestamp}` is never substituted into.
  return format.replace(/\{(body|timestamp|method|url|svix-id)\}/g, (_, name: string) =>
    name === 'body' ? body : name === 'timestamp' ? parts.timestamp : name === 'method' ? parts.method : name === 'url' ? parts.url : parts.id,
  );
}

/** The headers that authenticate one raw body under a plan (what the platform adds to a delivery). */
export async function signServerMessage(rawBody: string, plan: AuthenticationPlan, target: SignTarget = {}): Promise<Record<string, string>> {
  if (plan.type === 'bearer') {
    return { [(plan.headerName ?? 'Authorization').toLowerCase()]: plan.bearerPrefixEnabled === false ? plan.token : `Bearer ${plan.token}` };
  }
  const timestamp = String(target.timestamp ?? Math.floor(Date.now() / 1000));
  const id = target.messageId ?? crypto.randomUUID();
  const headers: Record<string, string> = {};
  const signature = await hmac(plan, payloadOf(plan, rawBody, { timestamp, method: target.method ?? 'POST', url: target.url ?? '', id }));
  headers[(plan.signatureHeader ?? 'x-signature').toLowerCase()] = signature;
  if (plan.includeTimestamp !== false) headers[(plan.timestampHeader ?? 'x-timestamp').toLowerCase()] = timestamp;
  if (plan.messageIdHeader) headers[plan.messageIdHeader.toLowerCase()] = id;
  return headers;
}

/** What `verifyServerMessage` says: valid, or why not. */
export type Verdict = { valid: true } | { valid: false; reason: string };

/** What to verify: the raw body exactly as received, its headers, and the plan (with its secret). */
export interface VerifyInput {
  body: string | Uint8Array;
  /** Request headers (any case; Node's `req.headers` or a `Headers` object). */
  headers: Headers | Record<string, string | string[] | undefined>;
  plan: AuthenticationPlan;
  /** Overrides the plan's secret (`token` or `secretKey`), e.g. from an environment variable. */
  secret?: string;
  /** Seconds a signed timestamp may be away from now (default 300). */
  toleranceSeconds?: number;
  /** The receiving URL and method, when the plan's payload format signs them. */
  url?: string;
  method?: string;
  /** Unix seconds to judge the timestamp against (default now; for tests). */
  now?: number;
}

function header(headers: VerifyInput['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === want) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** Checks that a server message was sent by someone holding the plan's secret, recently. */
export async function verifyServerMessage(input: VerifyInput): Promise<Verdict> {
  const body = typeof input.body === 'string' ? input.body : new TextDecoder().decode(input.body);
  if (input.plan.type === 'bearer') {
    const plan = { ...input.plan, ...(input.secret !== undefined ? { token: input.secret } : {}) };
    const name = plan.headerName ?? 'Authorization';
    const got = header(input.headers, name);
    if (got === undefined) return { valid: false, reason: `missing ${name} header` };
    const want = (await signServerMessage(body, plan))[name.toLowerCase()] as string;
    return constantTimeEqual(got, want) ? { valid: true } : { valid: false, reason: `wrong token in ${name}` };
  }
  const plan = { ...input.plan, ...(input.secret !== undefined ? { secretKey: input.secret } : {}) };
  const sigName = plan.signatureHeader ?? 'x-signature';
  const got = header(input.headers, sigName);
  if (got === undefined) return { valid: false, reason: `missing ${sigName} header` };
  let timestamp = '';
  if (plan.includeTimestamp !== false) {
    const tsName = plan.timestampHeader ?? 'x-timestamp';
    timestamp = header(input.headers, tsName) ?? '';
    if (!timestamp) return { valid: false, reason: `missing ${tsName} header` };
    const seconds = Number(timestamp);
    if (!Number.isFinite(seconds)) return { valid: false, reason: `${tsName} is not a Unix time in seconds` };
    const now = input.now ?? Math.floor(Date.now() / 1000);
    const tolerance = input.toleranceSeconds ?? 300;
    if (Math.abs(now - seconds) > tolerance) return { valid: false, reason: `timestamp is ${Math.round(now - seconds)} s away from now (tolerance ${tolerance} s): a replay or a wrong clock` };
  }
  const id = plan.messageIdHeader ? (header(input.headers, plan.messageIdHeader) ?? '') : '';
  const want = await hmac(plan, payloadOf(plan, body, { timestamp, method: input.method ?? 'POST', url: input.url ?? '', id }));
  return constantTimeEqual(got, want) ? { valid: true } : { valid: false, reason: `signature in ${sigName} does not match the body` };
}
