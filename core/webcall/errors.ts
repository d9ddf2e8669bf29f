// Error helpers: one place for the messages users see, for flattening errors into events and
// for scrubbing what goes to the error reporter.
import type { SerializedError, StartStage, WebCallError, WebCallErrorType } from './types.js';
import { VoiceError } from '../errors.js';

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

/**
 * The one place that decides which `error` events end the call (spec 8's catalogue): the start
 * errors (validation, each stage's error, start-method-error) and the media layer's fatal errors
 * (`daily-error`: connection, ejected, end of life, expired or not-yet-valid room or token, meeting
 * full, not allowed, no room). Everything else (`audio-start-failed`,
 * `audio-processor-recovery-error`, unknown types) leaves the call running and is only logged.
 */
const FATAL_TYPES: ReadonlySet<string> = new Set<WebCallErrorType>([
  'validation-error',
  'daily-call-object-creation-error',
  'daily-call-join-error',
  'video-recording-setup-error',
  'audio-observer-setup-error',
  'audio-processing-setup-error',
  'start-method-error',
  'daily-error',
]);

/** True when an error of this type ends the call (see FATAL_TYPES). */
export function isFatalErrorType(type: string): boolean {
  return FATAL_TYPES.has(type);
}

/** A `camera-error` is fatal only when the microphone was refused: a voice call cannot go on without it. */
export function isFatalCameraError(error: SerializedError): boolean {
  const inner = error.error as { type?: unknown } | undefined;
  const type = error.type ?? inner?.type;
  return type === 'permissions' || error.name === 'NotAllowedError';
}

/** An `error` event payload with its `fatal` flag set from the catalogue. */
export function webCallError(fields: Omit<WebCallError, 'fatal'>): WebCallError {
  return { ...fields, fatal: isFatalErrorType(fields.type) };
}

/** A stage failed; carries the stage name and the original error. */
export class StageFailure extends VoiceError {
  constructor(
    readonly stage: StartStage,
    override readonly cause: unknown,
  ) {
    super(serializeError(cause).message);
    this.name = 'StageFailure';
  }
}

/** An HTTP failure of `POST /call/web`, with the status and parsed body. */
export class WebCallCreationError extends VoiceError {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'WebCallCreationError';
  }
}
