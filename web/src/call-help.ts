// What "Test in Browser" says and checks when pressed: loaded with the press (or prefetched when
// the pointer or focus reaches the button), so none of it weighs on the page's first load.
import { LOCAL_ASSISTANT_PATH, type LocalCallInfo } from '#core/visitors/page-config';

/** The texts a press may show (spec 8 for the microphone). */
export const callText = {
  microphone: 'Microphone access is required. Please allow microphone permissions in your browser and try again.',
  notConfigured:
    'Test in Browser is not configured: set a public key and an assistant id (VOICE_PUBLIC_KEY and VOICE_ASSISTANT_ID, or voice demo --public-key and --assistant-id), then restart voice demo.',
  /** What a prospect sees on a hosted page built without browser-call settings. */
  notAvailable: 'Test in Browser is not available on this page yet. Please try Call Me instead.',
} as const;

/** Hosts a developer previews on (`voice demo`); anywhere else the reader is a prospect. */
const PREVIEW_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * The text for a browser call that is not configured: setup instructions for the developer
 * previewing locally, a plain sentence for a prospect on a hosted page (never CLI instructions).
 */
export function notConfiguredText(hostname: string): string {
  return PREVIEW_HOSTS.has(hostname) ? callText.notConfigured : callText.notAvailable;
}

/** True when an error (or anything it wraps) says the microphone was refused. */
export function isPermissionError(err: unknown, depth = 0): boolean {
  if (err == null || typeof err !== 'object' || depth > 4) return false;
  const e = err as { type?: unknown; name?: unknown; error?: unknown; errorMsg?: unknown };
  if (e.type === 'permissions' || e.type === 'not-allowed') return true;
  if (e.name === 'NotAllowedError' || e.name === 'PermissionDeniedError' || e.name === 'SecurityError') return true;
  return isPermissionError(e.error, depth + 1) || isPermissionError(e.errorMsg, depth + 1);
}

/** The demo's assistant on the local emulator `voice demo` runs the calls on (asked for at each press), and what the page says about that emulator. */
export async function localAssistant(): Promise<{ assistantId: string; local?: LocalCallInfo }> {
  const res = await fetch(LOCAL_ASSISTANT_PATH, { cache: 'no-store', signal: AbortSignal.timeout(35_000) });
  const body = (await res.json().catch(() => ({}))) as { assistantId?: unknown; local?: LocalCallInfo; message?: unknown };
  if (!res.ok || typeof body.assistantId !== 'string') throw new Error(`The local emulator is not available: ${typeof body.message === 'string' ? body.message : res.status}`);
  return { assistantId: body.assistantId, ...(body.local ? { local: body.local } : {}) };
}

/** Asks for the microphone up front so a refusal is reported before any network call. */
export async function checkMicrophone(): Promise<void> {
  const devices = globalThis.navigator?.mediaDevices;
  if (!devices?.getUserMedia) throw new Error('This browser cannot capture audio here (a secure context is needed).');
  const stream = await devices.getUserMedia({ audio: true });
  for (const track of stream.getTracks()) track.stop();
}
