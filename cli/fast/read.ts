// Runs one plain read the way the full CLI's catalogue command does (run-op.ts): the same
// settings (flags > environment > profile), the same client and transport, the same output and
// error reporting, only without building the commander program.
import type { Op } from '../../core/catalogue/index.js';
import { invoker, settingsOf } from '../../core/client/invoke.js';
import { nodeTransport, proxyConfigured } from '../../core/client/node-transport.js';
import { VERSION } from '../../core/version.js';
import { isExpected, reportError } from '../fail.js';
import { outputSettings } from '../output/mode.js';
import { printData } from '../output/print.js';
import { startSpinner } from '../output/spinner.js';
import { setErrColor } from '../output/style.js';
import { finish, installProcessHooks } from '../process-hooks.js';
import { redact } from '../redact.js';
import { requireKey, resolveSettings } from '../settings.js';
import type { ReadCall } from './args.js';

/** Sends the read, prints its answer and exits; false (nothing done) for a terminal table or a proxy. */
export async function runRead({ read, pathValues, opts }: ReadCall): Promise<boolean> {
  const output = outputSettings(opts);
  // A table or view on a terminal is drawn by the full CLI (Ink), and a proxy needs undici: both
  // are left out of the fast lane's file.
  if (output.mode === 'ink' || proxyConfigured()) return false;
  installProcessHooks();
  setErrColor(output.errColor);
  const op = read.op as Op;
  try {
    const s = resolveSettings(opts);
    if (op.auth === 'bearer') requireKey(s);
    const invoke = invoker(settingsOf({ apiKey: s.apiKey, baseUrl: s.baseUrl, userAgent: `voice-cli/${VERSION}`, transport: nodeTransport() }));
    // No list flags reach the fast lane, so the query is empty (buildQuery would give undefined).
    const spinner = startSpinner('Working…', output.spinner);
    let data: unknown;
    try {
      data = await invoke(op, pathValues, undefined);
    } finally {
      spinner.stop();
    }
    await printData(data, read.resource, output);
    return await finish(0);
  } catch (error) {
    // The full CLI's own reporting (main() in program.ts).
    const code = reportError(error, false);
    if (!isExpected(error)) await (await import('../sentry.js')).reportCrash(error, { redact, version: VERSION });
    return finish(code);
  }
}
