// Crash reports: off unless VOICE_SENTRY_DSN is set; then @sentry/node is loaded (only now,
// after a crash) and every event is scrubbed of keys, tokens and request bodies before sending.
// It imports nothing from the rest of the CLI (the caller passes redact and the version), so its
// lazy chunk does not split the startup modules into more files.

const SENSITIVE = /authorization|api[-_]?key|token|secret|password|cookie|credential|bearer/i;

function scrub(value: unknown, depth: number, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value).replace(/Bearer\s+[^\s"',]+/gi, 'Bearer [Filtered]');
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, redact));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SENSITIVE.test(k) ? '[Filtered]' : scrub(v, depth + 1, redact);
  return out;
}

/** Removes request bodies, headers, cookies and anything key- or token-like from an event. */
export function scrubEvent<E extends Record<string, unknown>>(event: E, redact: (text: string) => string = (t) => t): E {
  const copy = { ...event } as Record<string, unknown>;
  if (copy.request && typeof copy.request === 'object') {
    const { data: _data, cookies: _cookies, headers: _headers, ...rest } = copy.request as Record<string, unknown>;
    copy.request = rest;
  }
  delete copy.breadcrumbs;
  return scrub(copy, 0, redact) as E;
}

/** Sends a crash report when VOICE_SENTRY_DSN is set; never throws. */
export async function reportCrash(error: unknown, opts: { env?: NodeJS.ProcessEnv; redact: (text: string) => string; version: string }): Promise<void> {
  const env = opts.env ?? process.env;
  const dsn = env.VOICE_SENTRY_DSN;
  if (!dsn) return;
  try {
    const Sentry = await import('@sentry/node');
    Sentry.init({
      dsn,
      release: `voice@${opts.version}`,
      defaultIntegrations: false,
      sendDefaultPii: false,
      beforeSend: (event) => scrubEvent(event as unknown as Record<string, unknown>, opts.redact) as unknown as typeof event,
    });
    Sentry.captureException(error);
    await Sentry.flush(3000);
  } catch {
    // A failing crash reporter must not hide the original error.
  }
}
