// Budget: `voice demo` to page served <= 0.95x plain Vite warm, <= 1.1x cold. Measured gain of the
// demo's fast lane: about 15 ms a start (warm 0.91x, cold 0.99x with the Vite script).
// The fast lane's `voice demo` (dist/cli/demo.js, an entry of the full CLI's build sharing its
// chunks): runs a command line cli/demo/lane-args.ts recognised, as the full program would run it
// (program.ts main(): process hooks, error reporting, exit codes), without commander, the program
// or the catalogue.
import { VERSION } from 'voice-agent-core/version';
import { runDemo } from './run.js';
import { isExpected, reportError } from '../fail.js';
import { outputSettings } from '../output/mode.js';
import { setErrColor } from '../output/style.js';
import { finish, installProcessHooks } from '../process-hooks.js';
import { redact } from '../redact.js';
import type { DemoCall } from './lane-args.js';

/** Serves the demo until Ctrl-C, then exits with the full program's code. */
export async function runDemoLane({ opts, globals, color, verbose }: DemoCall): Promise<never> {
  installProcessHooks();
  setErrColor(outputSettings({ color }).errColor);
  try {
    await runDemo(opts, globals);
    return await finish(0);
  } catch (error) {
    const code = reportError(error, verbose);
    if (!isExpected(error)) await (await import('../sentry.js')).reportCrash(error, { redact, version: VERSION });
    return finish(code);
  }
}
