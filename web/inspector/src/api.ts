// Talking to the emulator that serves this page (same origin). REST needs a bearer key: any key
import { controlClient } from '#core/emulator/control/client';
// works unless `voice dev --api-key` was given; then the page asks for it once and keeps it in
// memory only (never shown, never stored).

let key: string | undefined;
const keyListeners = new Set<() => void>();
let needKey = false;
let version = 0;

/** Changes whenever a key is given (views that read through REST load again). */
export function keyVersion(): number {
  return version;
}

/** Whether the emulator refused the page's key (the page then asks for the real one). */
export function keyNeeded(): boolean {
  return needKey;
}

/** Sets the key typed by the developer (kept in memory only). */
export function setKey(value: string): void {
  key = value.trim() || undefined;
  needKey = false;
  version++;
  for (const l of keyListeners) l();
}

/** Calls `listener` whenever the key is needed or given. */
export function onKeyChange(listener: () => void): () => void {
  keyListeners.add(listener);
  return () => keyListeners.delete(listener);
}

/** An error answer from the emulator, with the message it gave. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Sends a request to the emulator; resolves with the parsed JSON answer or throws ApiFailure. */
export async function api<T = unknown>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  // The page is served by the emulator: paths are relative to it.
  const res = await controlClient('', { apiKey: key ?? 'inspector', headers: { 'x-voice-inspector': '1' } }).send<unknown>(init.method ?? 'GET', path, init.body);
  const data = res.body;
  if (!res.ok) {
    if (res.status === 401) {
      needKey = true;
      for (const l of keyListeners) l();
    }
    const m = (data as { message?: unknown } | undefined)?.message;
    throw new ApiFailure(res.status, Array.isArray(m) ? m.join('; ') : typeof m === 'string' ? m : `HTTP ${res.status}`);
  }
  return data as T;
}
