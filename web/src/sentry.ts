// Error reporting, loaded with import() only when a DSN is configured.
import * as Sentry from '@sentry/react';
import type { BrowserOptions } from '@sentry/react';
import { redact } from '#core/webcall/errors';
import type { FatalErrorReport } from '#core/webcall/types';

/** Starts error reporting for the page (`transport` is for tests). */
export function initSentry(dsn: string, transport?: BrowserOptions['transport']): void {
  Sentry.init({
    dsn,
    sendDefaultPii: false,
    maxBreadcrumbs: 100,
    ...(transport ? { transport } : {}),
    // Console breadcrumbs carry the logged objects as they are (a call's error, its token...):
    // keep their text only, and filter name, data and token fields from any other breadcrumb data.
    beforeBreadcrumb(crumb) {
      if (crumb.category === 'console') return { ...crumb, data: undefined };
      return crumb.data ? { ...crumb, data: redact(crumb.data) as Record<string, unknown> } : crumb;
    },
  });
}

/**
 * Reports a fatal web-call error (the web-call client's `reportError` hook). The report comes
 * with `name`, `data` and token fields already removed (spec 8); the message is the error's text.
 */
export function reportFatal(report: FatalErrorReport): void {
  Sentry.captureMessage(`Web call error (${report.type}): ${report.message}`, {
    level: 'error',
    tags: { type: report.type, ...(report.stage ? { stage: report.stage } : {}) },
    extra: { error: report.error, ...(report.context ? { context: report.context } : {}), timestamp: report.timestamp },
  });
}
