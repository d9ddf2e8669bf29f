// The one client for the emulator's own endpoints, used by `voice dev reset|snapshot|ring`,
// `voice call watch` and the inspector page. Browser-safe: fetch only, no Node modules.
import { CONTROL_PATHS, endCallPath, deliveryPath, replayPath, requestPath, restorePath, snapshotPath } from './paths.js';

/** An answer of the emulator: its status and its body (parsed JSON, else the text). */
export interface ControlAnswer<T = unknown> {
  status: number;
  ok: boolean;
  body: T;
}

/** Nothing answered at the emulator's address. */
export class ControlUnreachableError extends Error {
  constructor(
    readonly base: string,
    options?: { cause?: unknown },
  ) {
    super(`No emulator answers at ${base}.`, options);
    this.name = 'ControlUnreachableError';
  }
}

/** How the client reaches the emulator. */
export interface ControlClientOptions {
  /** Sent as a bearer token (an emulator started with a key needs it). */
  apiKey?: string;
  /** More headers on every request. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** A client for one emulator (`base` is its URL; '' in the inspector, which is served by it). */
export function controlClient(base: string, options: ControlClientOptions = {}) {
  const root = base.replace(/\/+$/, '');
  const send = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<ControlAnswer<T>> => {
    const headers: Record<string, string> = { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await (options.fetch ?? fetch)(`${root}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (cause) {
      throw new ControlUnreachableError(root || 'this page', { cause });
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the text itself.
    }
    return { status: res.status, ok: res.ok, body: parsed as T };
  };
  return {
    base: root,
    send,
    health: () => send('GET', CONTROL_PATHS.health),
    info: <T>() => send<T>('GET', CONTROL_PATHS.info),
    reset: () => send('POST', CONTROL_PATHS.reset),
    setSpeed: (speed: number) => send<{ speed?: number; was?: number; activeCalls?: number; message?: unknown }>('POST', CONTROL_PATHS.speed, { speed }),
    saveSnapshot: (name: string) => send('POST', snapshotPath(name)),
    restoreSnapshot: (name: string) => send('POST', restorePath(name)),
    snapshots: () => send('GET', CONTROL_PATHS.snapshots),
    ring: (phoneNumberId: string, from: string) => send<{ id?: string; message?: unknown }>('POST', CONTROL_PATHS.ring, { phoneNumberId, from }),
    endCall: (id: string, by: string) => send('POST', endCallPath(id), { by }),
    delivery: <T>(id: string) => send<T>('GET', deliveryPath(id)),
    replayDelivery: <T>(id: string) => send<T>('POST', replayPath(id)),
    request: <T>(seq: string | number) => send<T>('GET', requestPath(seq)),
  };
}

/** A client made by controlClient. */
export type ControlClient = ReturnType<typeof controlClient>;
