// Error reporting, loaded with import() only when a DSN is configured.
import * as Sentry from '@sentry/react';

/** Starts error reporting for the page. */
export function initSentry(dsn: string): void {
  Sentry.init({ dsn, sendDefaultPii: false });
}
