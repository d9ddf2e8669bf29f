// Which platform the local Call Me webhook places calls on: the hosted API when a key is set,
// an API URL the user named, or an emulator run in-process (port 4010 so that
// `voice call list --local` sees the calls; when 4010 is taken, even by an emulator, a free port).
// On a local emulator the calls use the demo's own assistant, looked up when a call needs it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PLATFORM_API } from '#core/hosts';
import { LOCAL_ASSISTANT_PATH } from '#core/visitors/page-config';
import type { CallTarget } from '#core/visitors/callme';
import type { Snapshot } from 'voice-agent-core/emulator';
import { NotAnswering } from '../../errors.js';
import { inspectorDir } from '../../inspector-dir.js';
import { localFlags } from '#core/hosts';
import { localCallInfo } from './local-info.js';

export { NotAnswering };

/** The platform's hosted API. */
export const HOSTED_API = PLATFORM_API;

/** Any key works against the emulator; this one says where it came from. */
export const LOCAL_KEY = 'voice-demo-local';

/** The assistant the demo's browser calls talk to on a local emulator (the visitor's overrides do the rest). */
export const LOCAL_ASSISTANT = { name: 'voice demo (local)', firstMessage: 'Hello! How can I help you today?' };

/** Inputs for choosing the platform. */
export interface CallTargetOptions {
  apiKey: string;
  apiUrl: string;
  assistantId: string;
  phoneNumberId: string;
  /** Preferred emulator port; 0 = any free port. */
  port: number;
  /** An emulator started here starts with the demo's assistant (LOCAL_ASSISTANT), for Test in Browser. */
  withAssistant?: boolean;
  log: (line: string) => void;
}

/** A chosen platform and how to let go of it. */
export interface StartedTarget {
  target: CallTarget;
  /** True when the webhook calls the hosted platform (real phone calls). */
  hosted: boolean;
  /** True when the calls go to a local emulator started here. */
  emulator: boolean;
  /** The demo's assistant, when the emulator was started here with it (`withAssistant`). */
  assistantId?: string;
  /** The emulator runs in this process (started here). */
  inProcess?: boolean;
  /** The emulator started here serves the inspector page (it has been built). */
  inspector?: boolean;
  close(): Promise<void>;
}

/** A plain-http address on this machine: an emulator (`voice dev`), never the hosted platform. */
const LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/;

/** True when the chosen platform is a local emulator (started here, found, or named by a loopback --api-url). */
export function isLocalPlatform(t: StartedTarget, apiKey: string): boolean {
  return !t.hosted && (t.emulator || !apiKey || LOOPBACK.test(t.target.baseUrl));
}

/** How to follow a call placed on `baseUrl` from a terminal. */
export function watchCommand(callId: string, baseUrl: string, local: boolean): string {
  return local ? `voice call watch ${callId} ${localFlags(baseUrl)}` : `voice call watch ${callId}`;
}

/**
 * The demo's assistant on a local emulator, looked up when a call needs it rather than once at
 * start: the emulator may start after the demo, or restart without it. An id known at start
 * (an emulator started here with it) is trusted while that emulator runs; any other is checked.
 */
export function localAssistant(baseUrl: string, known?: { id: string; trusted: boolean }): () => Promise<string> {
  let cached = known?.id;
  const trusted = known?.trusted ?? false;
  let pending: Promise<string> | undefined;
  const find = async (): Promise<string> => {
    try {
      if (cached && (trusted || (await assistantExists(baseUrl, cached)))) return cached;
      return (cached = await ensureLocalAssistant(baseUrl));
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      if (cause === 'ECONNREFUSED' || (err as Error).message === 'fetch failed') {
        throw new NotAnswering(baseUrl, err);
      }
      throw err;
    }
  };
  // Calls at the same moment share one lookup (and never create the assistant twice).
  return () => (pending ??= find().finally(() => (pending = undefined)));
}

async function assistantExists(baseUrl: string, id: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/assistant/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${LOCAL_KEY}` }, signal: AbortSignal.timeout(5000) });
  await res.body?.cancel();
  return res.ok;
}

/** Picks (and if needed starts) the platform the webhook places calls on. */
export async function startCallTarget(o: CallTargetOptions): Promise<StartedTarget> {
  const base = { assistantId: o.assistantId || undefined, phoneNumberId: o.phoneNumberId || undefined };
  const nothing = async () => undefined;
  if (o.apiKey) {
    const baseUrl = o.apiUrl || HOSTED_API;
    return { target: { ...base, baseUrl, apiKey: o.apiKey }, hosted: baseUrl === HOSTED_API, emulator: false, close: nothing };
  }
  if (o.apiUrl) return { target: { ...base, baseUrl: o.apiUrl, apiKey: LOCAL_KEY }, hosted: false, emulator: false, close: nothing };

  const { startEmulator } = await import('voice-agent-core/emulator');
  const seeded = o.withAssistant ? localAssistantState() : undefined;
  // It serves the inspector as `voice dev` does: the page and the start-up lines point at it.
  const inspector = inspectorDir();
  const own = { assistantId: seeded?.assistantId, inProcess: true, inspector: Boolean(inspector) };
  try {
    const emu = await startEmulator({ port: o.port, initial: seeded?.snapshot, inspectorDir: inspector });
    return { target: { ...base, baseUrl: emu.url, apiKey: LOCAL_KEY }, hosted: false, emulator: true, ...own, close: () => emu.close() };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
  }
  // An emulator the demo did not start (a `voice dev` on 4010) is used only when --api-url names
  // it: adopting it silently would put the demo's assistant among the user's own resources.
  const busy = `http://127.0.0.1:${o.port}`;
  const other = await isEmulator(busy);
  const emu = await startEmulator({ port: 0, initial: seeded?.snapshot, inspectorDir: inspector });
  o.log(
    other
      ? `Port ${o.port} runs a platform emulator the demo did not start, so the demo runs its own at ${emu.url}; to use that one instead, pass --api-url ${busy}.`
      : `Port ${o.port} is busy (not an emulator), so the demo's emulator runs at ${emu.url}; list its calls with: voice call list ${localFlags(emu.url)}`,
  );
  return { target: { ...base, baseUrl: emu.url, apiKey: LOCAL_KEY }, hosted: false, emulator: true, ...own, close: () => emu.close() };
}

/**
 * Loads the request schemas of an emulator running in this process and compiles the one of
 * `POST /assistant`, as creating the demo's assistant over HTTP did at start: the first Call Me or
 * browser call then does not wait for them. Meant for when the page has loaded (it costs about
 * 230 ms of CPU on a busy machine).
 */
export async function warmLocalEmulator(): Promise<void> {
  const { loadSchemas } = await import('#core/schemas/validate');
  (await loadSchemas()).request('POST', '/assistant', LOCAL_ASSISTANT);
}

/**
 * A fresh emulator's starting state holding the demo's assistant: the object `POST /assistant`
 * with LOCAL_ASSISTANT stores (its fields, an id, the org, creation times). Creating it over HTTP
 * instead would load and compile the emulator's request schemas while the page is loading
 * (about 230 ms of CPU); they now load on the first request that carries a body.
 */
export function localAssistantState(now = new Date()): { snapshot: Snapshot; assistantId: string } {
  const orgId = randomUUID();
  const at = now.toISOString();
  const assistant = { id: randomUUID(), orgId, ...LOCAL_ASSISTANT, createdAt: at, updatedAt: at };
  return { snapshot: { format: 'voice-emulator', version: 1, orgId, userId: randomUUID(), collections: { assistant: [assistant] } }, assistantId: assistant.id };
}

/** True when `url` answers `GET /call` like the platform (a JSON array). */
async function isEmulator(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/call?limit=1`, { headers: { authorization: `Bearer ${LOCAL_KEY}` }, signal: AbortSignal.timeout(1000) });
    return res.ok && Array.isArray(await res.json());
  } catch {
    return false;
  }
}

/** The id of the demo's assistant on an emulator: the one made on an earlier run, else a new one. */
export async function ensureLocalAssistant(baseUrl: string): Promise<string> {
  // Generous: an emulator's first write compiles its request schemas (about 2 s on a busy machine,
  // far more while Vite starts beside it), and a slow answer here silently turns local calls off.
  const signal = () => AbortSignal.timeout(30_000);
  const headers = { authorization: `Bearer ${LOCAL_KEY}`, 'content-type': 'application/json' };
  const listed = await fetch(`${baseUrl}/assistant?limit=1000`, { headers, signal: signal() });
  if (listed.ok) {
    const found = ((await listed.json()) as Array<{ id: string; name?: string }>).find((a) => a.name === LOCAL_ASSISTANT.name);
    if (found) return found.id;
  }
  const created = await fetch(`${baseUrl}/assistant`, { method: 'POST', headers, body: JSON.stringify(LOCAL_ASSISTANT), signal: signal() });
  if (!created.ok) throw new Error(`creating its assistant answered ${created.status}`);
  return ((await created.json()) as { id: string }).id;
}

/**
 * `GET /__voice/local-assistant`: the demo's assistant on the local emulator, which the page asks
 * for when Test in Browser is pressed (the emulator may have started after the page, or restarted).
 */
export function localAssistantMiddleware(platform: Promise<{ local: boolean; assistant?: () => Promise<string>; target: CallTarget }>, log: (line: string) => void) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if ((req.url ?? '').split('?')[0] !== LOCAL_ASSISTANT_PATH) return next();
    const send = (status: number, data: Record<string, unknown>) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(data));
    };
    if (req.method !== 'GET') return send(405, { message: `Use GET ${LOCAL_ASSISTANT_PATH}` });
    void platform.then(
      async (p) => {
        if (!p.assistant) return send(404, { message: 'Test in Browser does not run on a local emulator here.' });
        try {
          const [assistantId, local] = await Promise.all([p.assistant(), localCallInfo(p.target.baseUrl, p.target.apiKey)]);
          send(200, { assistantId, local });
        } catch (err) {
          log(`voice demo: Test in Browser cannot start: ${(err as Error).message}`);
          send(503, { message: (err as Error).message });
        }
      },
      () => send(503, { message: 'The demo has no platform to call.' }),
    );
  };
}
