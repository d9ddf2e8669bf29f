// Budget: `voice assistant list --json` start to exit <= 1.35x `node -e 0` (and the Ink table on a
// terminal <= 2.5x). Measured gain of the fast lane: 1.66x -> 1.24x; 698 M -> 599 M instructions (callgrind).
// Runs one plain read the way the full CLI's catalogue command does (run-op.ts): the same
// settings (flags > environment > profile), the same client and transport, the same output (an
// Ink table or view on a terminal, from the Ink script) and error reporting, only without
// building the commander program.
import type { Op } from '#core/catalogue/index';
import { invoker, settingsOf } from '#core/client/invoke';
import { nodeTransport, proxyConfigured } from '#core/client/node-transport';
import { VERSION } from '#core/version';
import { isExpected, reportError } from '../fail.js';
import { outputSettings } from '../output/mode.js';
import { pageHint } from '../output/page-hint.js';
import { loadUi, printData } from '../output/print.js';
import { startSpinner } from '../output/spinner.js';
import { setErrColor } from '../output/style.js';
import { finish, installProcessHooks } from '../process-hooks.js';
import { redact } from '../redact.js';
import { requireKey, resolveSettings } from '../settings.js';
import type { ReadCall } from './lane-args.js';
import { canDraw } from './lane-ink-script.js';

/** Sends the read, prints its answer and exits; false (nothing done) when the full CLI must (a proxy, no Ink script). */
export async function runRead({ read, pathValues, opts }: ReadCall): Promise<boolean> {
  const output = outputSettings(opts);
  // A proxy needs undici, left out of the fast lane's file; a table or view on a terminal needs
  // the built Ink script (from source, only the full CLI's ES module views draw).
  if (proxyConfigured() || (output.mode === 'ink' && !canDraw())) return false;
  installProcessHooks();
  setErrColor(output.errColor);
  // As the full CLI does: Ink loads while the request is under way.
  if (output.mode === 'ink') void loadUi(output.color).catch(() => undefined);
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
    pageHint(data, output);
    return await finish(0);
  } catch (error) {
    // The full CLI's own reporting (main() in program.ts).
    const code = reportError(error, false);
    if (!isExpected(error)) await (await import('../sentry.js')).reportCrash(error, { redact, version: VERSION });
    return finish(code);
  }
}
