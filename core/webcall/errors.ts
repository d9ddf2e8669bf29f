// Error helpers: one place for the messages users see, for flattening errors into events and
// for scrubbing what goes to the error reporter.
import type { SerializedError } from './types.js';

/** Thrown by start() when none of assistant, squad or workflow is given. */
export const MISSING_TARGET = 'Assistant or Squad or Workflow must be provided.';
/** Thrown by methods that need a call when there is none. */
export const NO_CALL = 'Call object is not available.';

/** Flattens any thrown value into a plain object whose fields survive JSON. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const out: SerializedError = { message: error.message, name: error.name, stack: error.stack };
    const extra = error as unknown as Record<string, unknown>;
    for (const key of ['code', 'reason', 'details', 'status', 'body', 'errorMsg']) {
      if (extra[key] !== undefined) out[key] = extra[key];
    }
    if (error.cause !== undefined) out.cause = String(error.cause);
    return out;
  }
  if (typeof error === 'string') return { message: error };
  if (error && typeof error === 'object') {
    const record = error as Record<string, unknown>;
    const inner = record.error as Record<string, unknown> | string | undefined;
    const message =
      (typeof record.message === 'string' && record.message) ||
      (typeof record.errorMsg === 'string' && record.errorMsg) ||
      (typeof inner === 'string' ? inner : typeof inner?.msg === 'string' ? inner.msg : '') ||
      safeJson(error);
    return { ...record, message };
  }
  return { message: error === undefined || error === null ? 'Unknown error' : String(error) };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Keys never sent to the error reporter: personal names, message data and any token. */
function isSecretKey(key: string): boolean {
  return key === 'name' || key === 'data' || /token/i.test(key);
}

/** Deep copy without `name`, `data` and token fields (cycles and depth are bounded). */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value) || depth > 8) return '[omitted]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!isSecretKey(key)) out[key] = redact(item, depth + 1, seen);
  }
  return out;
}
