// The local "Call Me" webhook `voice demo` serves when no webhook URL is configured: it takes
// the page's `{ phone, slug }` and places the outbound call through the REST client
// (`POST /call/phone`), against the hosted platform or a local emulator. With a hosted key that
// is a real call on the developer's bill, so it answers only the demo page itself: JSON only (a
// browser must preflight it), the page's own origin, a visitor that exists, a few calls a minute.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClient } from '../client/node.js';
import { readBody, parseJson } from '../emulator/http/io.js';
import { SlidingWindowLimiter, type RateLimit } from '../emulator/http/rate-limit.js';
import { RequestGuard } from '../net/guard.js';
import type { Visitor } from './model.js';
import type { LocalCallInfo } from './page-config.js';
import { demoOverrides } from './overrides.js';

/** The path the page posts to when no webhook URL is configured. */
export const CALL_ME_PATH = '/__voice/call-me';

/** Where outbound calls go and what they are placed with. */
export interface CallTarget {
  /** Platform API base URL (hosted or the emulator). */
  baseUrl: string;
  apiKey: string;
  /** Assistant the call uses; without one the overrides carry the whole conversation. */
  assistantId?: string;
  /** Platform phone number the call is placed from (the hosted platform needs one). */
  phoneNumberId?: string;
}

/** The body of `POST /call/phone` for a visitor: their first message and system prompt as overrides. */
export function phoneCallBody(phone: string, visitor: Pick<Visitor, 'first_message' | 'system'> | undefined, target: Pick<CallTarget, 'assistantId' | 'phoneNumberId'>) {
  // Only the fields the visitor has (an empty system prompt leaves the assistant's own).
  const { firstMessage, model } = demoOverrides({ first_message: visitor?.first_message ?? '', system: visitor?.system ?? '' });
  const assistantOverrides = { ...(firstMessage ? { firstMessage } : {}), ...(visitor?.system ? { model } : {}) };
  return {
    ...(target.assistantId ? { assistantId: target.assistantId } : {}),
    ...(target.phoneNumberId ? { phoneNumberId: target.phoneNumberId } : {}),
    assistantOverrides,
    customer: { number: phone },
  };
}

/** Places the call through the REST client and returns the created call's id. */
export async function placeCall(target: CallTarget, body: ReturnType<typeof phoneCallBody>): Promise<string | undefined> {
  const client = createClient({ apiKey: target.apiKey, baseUrl: target.baseUrl, maxRetries: 0, timeoutMs: 15000 });
  const call = (await client.call.phone(body as never)) as { id?: string } | undefined;
  return call?.id;
}

/** E.164: a plus, then 7 to 15 digits. The page sends this shape; anything else is refused. */
const E164 = /^\+[1-9]\d{6,14}$/;

/** What the webhook needs: a visitor lookup and a way to place the call. */
export interface CallMeOptions {
  lookup(slug: string): Promise<Visitor | undefined> | Visitor | undefined;
  target: CallTarget;
  /**
   * The assistant the call uses when the target names none: the demo's own on a local emulator,
   * looked up at each call (the emulator may have started after the demo, or restarted).
   */
  assistant?: () => Promise<string>;
  /** How to follow a placed call from a terminal (default `voice call watch <id>`). */
  watch?: (callId: string) => string;
  /** On a local emulator: what the page is told about a placed call (its answer's `local`). */
  local?: (callId: string) => Promise<LocalCallInfo>;
  /** One line per call for the terminal. */
  log?: (line: string) => void;
  /** Replaceable for tests. */
  place?: typeof placeCall;
  /** Calls one client (IP address) may place (default 5 a minute). */
  rateLimit?: RateLimit;
  /** The clock of the rate limit (tests). */
  now?: () => number;
  /** The address the server listens on (a non-loopback one is reached by other names). */
  bind?: string;
}

/** The default limit: 5 calls a minute per client. */
export const CALL_ME_RATE_LIMIT: RateLimit = { max: 5, windowMs: 60_000 };

function reply(res: ServerResponse, status: number, data: Record<string, unknown>, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(status < 400 ? data : { ok: false, ...data });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...headers });
  res.end(body);
}

function isJson(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** Connect-style middleware answering `POST /__voice/call-me` with `{ ok, callId }` or an error. */
export function callMeMiddleware(options: CallMeOptions, path = CALL_ME_PATH) {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const place = options.place ?? placeCall;
  const limiter = new SlidingWindowLimiter(options.rateLimit ?? CALL_ME_RATE_LIMIT, options.now);
  // The demo page itself, or a caller that is no page (curl): the shared guard decides (the demo's
  // server runs the same guard before this, for every path).
  const pageGuard = new RequestGuard({ pages: 'self', bind: options.bind, name: 'Call Me' });
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
    if ((req.url ?? '').split('?')[0] !== path) return next();
    if (req.method !== 'POST') return reply(res, 405, { error: 'method-not-allowed', message: `Use POST ${path}` }, { allow: 'POST' });
    const foreign = pageGuard.check(req);
    if (foreign) {
      log(`voice demo: refused a Call Me request from another origin (${req.headers.origin ?? String(req.headers['sec-fetch-site'])})`);
      return reply(res, 403, { error: 'forbidden-origin', message: foreign.message });
    }
    if (!isJson(req)) return reply(res, 415, { error: 'unsupported-media-type', message: 'Send the body as JSON, with Content-Type: application/json.' });
    void (async () => {
      let payload: Record<string, unknown>;
      try {
        payload = parseJson(await readBody(req));
      } catch (err) {
        return reply(res, 400, { error: 'bad-request', message: (err as Error).message });
      }
      const { phone, slug } = payload;
      if (typeof phone !== 'string' || !E164.test(phone)) return reply(res, 400, { error: 'bad-phone', message: 'phone must be an international number like +14155550100' });
      const visitorSlug = typeof slug === 'string' && slug ? slug : 'default';
      try {
        const visitor = await options.lookup(visitorSlug);
        if (!visitor) return reply(res, 404, { error: 'unknown-visitor', message: `There is no visitor "${visitorSlug}", so no call was placed.` });
        const wait = limiter.take(req.socket.remoteAddress ?? 'unknown');
        if (wait > 0) {
          const seconds = Math.max(1, Math.ceil(wait / 1000));
          log(`voice demo: refused a call to ${phone}: more than ${(options.rateLimit ?? CALL_ME_RATE_LIMIT).max} calls a minute from ${req.socket.remoteAddress ?? 'one client'}`);
          return reply(res, 429, { error: 'rate-limited', message: `Too many calls from this client; try again in ${seconds} s.`, retryAfter: seconds }, { 'retry-after': String(seconds) });
        }
        const target = options.target.assistantId || !options.assistant ? options.target : { ...options.target, assistantId: await options.assistant() };
        const callId = await place(target, phoneCallBody(phone, visitor, target));
        const follow = callId ? `; follow it: ${(options.watch ?? ((id: string) => `voice call watch ${id}`))(callId)}` : '';
        log(`voice demo: call ${callId ?? '(no id)'} placed to ${phone} for "${visitorSlug}" via ${target.baseUrl}${follow}`);
        const local = callId && options.local ? await options.local(callId).catch(() => undefined) : undefined;
        reply(res, 200, { ok: true, callId, ...(local ? { local } : {}) });
      } catch (err) {
        log(`voice demo: could not place the call to ${phone}: ${(err as Error).message}`);
        reply(res, 502, { error: 'call-failed', message: `Could not place the call: ${(err as Error).message}` });
      }
    })();
  };
}
