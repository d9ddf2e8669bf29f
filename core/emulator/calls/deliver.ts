// Deliveries: `POST { message }` to the server the platform's precedence picks (the tool's
// server for `tool-calls`, then the assistant's, the phone number's, the org's), with the
// server's headers and timeout. Every delivery lands in the record, answered or not.
import { postServerMessage } from '../../messages/post.js';
import type { Json, ServerMessage } from '../../messages/index.js';
import type { Delivery, EmulatorRecord } from '../store/record.js';
import { isSigningPlan, signServerMessage } from '../../verify/index.js';
import { isObject } from '../../json.js';

/** Where and how a message is posted. */
export interface ServerTarget {
  url: string;
  headers: Record<string, string>;
  /** Real seconds to wait for the answer (the platform's default is 20). */
  timeoutSeconds: number;
  /** Authentication headers for one raw body (the server's `credentialId` names a webhook credential). */
  sign?: (rawBody: string) => Promise<Record<string, string>>;
  /** The webhook credential the server names (`server.credentialId`). */
  credentialId?: string;
}

/** Answers longer than this are recorded as their start and length only (the call still gets all of it). */
export const RECORDED_ANSWER_CHARS = 64 * 1024;

/** The platform's default `server.timeoutSeconds`. */
export const DEFAULT_TIMEOUT_SECONDS = 20;

/** The server of an assistant, phone number, tool or org: `server` or the older `serverUrl`/`serverUrlSecret`. */
export function serverOf(owner: Json | undefined): ServerTarget | undefined {
  if (!owner) return undefined;
  const server = owner.server as Json | undefined;
  const url = typeof server?.url === 'string' && server.url ? server.url : typeof owner.serverUrl === 'string' && owner.serverUrl ? owner.serverUrl : undefined;
  if (!url) return undefined;
  const headers: Record<string, string> = {};
  if (typeof owner.serverUrlSecret === 'string') headers['x-vapi-secret'] = owner.serverUrlSecret;
  if (server?.headers && typeof server.headers === 'object') {
    for (const [k, v] of Object.entries(server.headers as Json)) if (v !== undefined && v !== null) headers[k.toLowerCase()] = String(v);
  }
  const t = Number(server?.timeoutSeconds);
  const credentialId = typeof server?.credentialId === 'string' && server.credentialId ? server.credentialId : undefined;
  return { url, headers, timeoutSeconds: Number.isFinite(t) && t > 0 ? t : DEFAULT_TIMEOUT_SECONDS, ...(credentialId ? { credentialId } : {}) };
}

/** Adds the signing the platform does when the server names a webhook credential with a bearer or HMAC plan. */
export function withCredential(target: ServerTarget | undefined, credential: (id: string) => Json | undefined): ServerTarget | undefined {
  if (!target?.credentialId) return target;
  const plan = credential(target.credentialId)?.authenticationPlan;
  if (!isSigningPlan(plan)) return target;
  return { ...target, sign: (raw) => signServerMessage(raw, plan, { url: target.url, method: 'POST' }) };
}

/** The owners a call's messages may go to, most specific first. */
export interface Owners {
  tool?: Json;
  assistant?: Json;
  phoneNumber?: Json;
  org?: Json;
}

/** Types a tool's own server gets first: its calls, and the destination requests of transfer and handoff tools. */
const TOOL_FIRST = new Set(['tool-calls', 'transfer-destination-request', 'handoff-destination-request']);

/** The server for a message type by the platform's precedence, or undefined when none is set. */
export function chooseServer(type: string, owners: Owners): ServerTarget | undefined {
  if (TOOL_FIRST.has(type)) {
    const own = serverOf(owners.tool);
    if (own) return own;
  }
  return serverOf(owners.assistant) ?? serverOf(owners.phoneNumber) ?? serverOf(owners.org);
}

/** What a delivery gives the caller: the recorded delivery and, when usable, the answer object. */
export interface Delivered {
  delivery: Delivery;
  /** The answer's JSON object (unwrapped from `messageResponse` when the server used it). */
  answer?: Json;
}

// Deliveries take turns, a few per turn of the event loop, so a burst (100 calls changing status
// at once) never holds up the REST requests waiting between them.
const PER_TURN = 8;
const waiting: (() => void)[] = [];
let pumping = false;

function pump(): void {
  for (let i = 0; i < PER_TURN && waiting.length; i++) (waiting.shift() as () => void)();
  if (waiting.length) setImmediate(pump);
  else pumping = false;
}

/** Resolves when it is this delivery's turn to be built and sent. */
export function turn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

/** Posts one message and records the delivery; never throws. When `signal` aborts (a reset), the delivery is dropped and not recorded; `replayOf` names the delivery a replay repeats. */
export async function deliver(record: EmulatorRecord, target: ServerTarget, callId: string, message: ServerMessage, signal?: AbortSignal, replayOf?: string): Promise<Delivered> {
  const body = { message };
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'voice-emulator', ...target.headers, ...(target.sign ? await target.sign(raw) : {}) };
  const delivery: Delivery = {
    id: record.nextDeliveryId(),
    callId,
    type: message.type,
    url: target.url,
    sentAt: new Date().toISOString(),
    request: { headers, body },
    ms: 0,
    ...(replayOf ? { replayOf } : {}),
  };
  let answer: Json | undefined;
  const got = await postServerMessage(target.url, raw, { headers, timeoutMs: target.timeoutSeconds * 1000, ...(signal ? { signal } : {}) });
  if (got.status !== undefined) {
    delivery.status = got.status;
    const parsed: unknown = got.failure === 'not-json' ? got.text : got.answer;
    if (got.failure === 'not-json') delivery.error = 'malformed JSON in the answer';
    // A huge answer is used in full but kept short in the record, so memory stays bounded.
    delivery.answer = got.text.length > RECORDED_ANSWER_CHARS ? { truncated: true, chars: got.text.length, start: got.text.slice(0, 2048) } : parsed;
    if (got.status < 200 || got.status >= 300) delivery.error = `HTTP ${got.status}`;
    else if (isObject(parsed)) answer = isObject(parsed.messageResponse) ? parsed.messageResponse : parsed;
  } else {
    delivery.error = got.failure === 'timeout' ? `no answer within ${target.timeoutSeconds} s` : `could not connect: ${got.reason ?? 'no answer'}`;
  }
  delivery.ms = Math.round(got.ms * 10) / 10;
  if (signal?.aborted) return { delivery };
  record.add({ kind: 'delivery', callId, delivery });
  return answer ? { delivery, answer } : { delivery };
}
