// The local "Call Me" webhook `voice demo` serves when no webhook URL is configured: it takes
// the page's `{ phone, slug }` and places the outbound call through the REST client
// (`POST /call/phone`), against the hosted platform or a local emulator.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClient } from '../client/node.js';
import { readBody, parseJson } from './http.js';
import type { VisitorRecord } from './visitors.js';
import { demoOverrides } from '../visitors/overrides.js';

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
export function phoneCallBody(phone: string, visitor: Pick<VisitorRecord, 'first_message' | 'system'> | undefined, target: Pick<CallTarget, 'assistantId' | 'phoneNumberId'>) {
  // Only the fields the visitor has: an unknown slug places a call on the assistant as configured.
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
  lookup(slug: string): Promise<VisitorRecord | undefined> | VisitorRecord | undefined;
  target: CallTarget;
  /** One line per call for the terminal. */
  log?: (line: string) => void;
  /** Replaceable for tests. */
  place?: typeof placeCall;
}

function reply(res: ServerResponse, status: number, data: unknown): void {
  const body = JSON.stringify(data);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Connect-style middleware answering `POST /__voice/call-me` with `{ ok, callId }` or an error. */
export function callMeMiddleware(options: CallMeOptions, path = CALL_ME_PATH) {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const place = options.place ?? placeCall;
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
    if ((req.url ?? '').split('?')[0] !== path) return next();
    if (req.method !== 'POST') return reply(res, 405, { message: `Use POST ${path}` });
    void (async () => {
      let payload: Record<string, unknown>;
      try {
        payload = parseJson(await readBody(req));
      } catch (err) {
        return reply(res, 400, { message: (err as Error).message });
      }
      const { phone, slug } = payload;
      if (typeof phone !== 'string' || !E164.test(phone)) return reply(res, 400, { message: 'phone must be an international number like +14155550100' });
      const visitorSlug = typeof slug === 'string' && slug ? slug : 'default';
      try {
        const visitor = await options.lookup(visitorSlug);
        const callId = await place(options.target, phoneCallBody(phone, visitor, options.target));
        log(`voice demo: call ${callId ?? '(no id)'} placed to ${phone} for "${visitorSlug}" via ${options.target.baseUrl}`);
        reply(res, 200, { ok: true, callId });
      } catch (err) {
        log(`voice demo: could not place the call to ${phone}: ${(err as Error).message}`);
        reply(res, 502, { message: `Could not place the call: ${(err as Error).message}` });
      }
    })();
  };
}
