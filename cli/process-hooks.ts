// What every run of the CLI installs before it works (Ctrl-C, a closed pipe) and how it ends: the
// full program (program.ts) and the fast lane for reads (cli/launch/lane-read.ts) share both.
import { ExitCode } from './errors.js';
import { stopSpinner } from './output/spinner.js';

/** Ctrl-C exits 130 (unless a long-running command handles it); a closed stdout pipe exits 0. */
export function installProcessHooks(): void {
  process.on('SIGINT', () => {
    // Long-running commands (demo, dev) install their own handler to shut down cleanly.
    if (process.listenerCount('SIGINT') > 1) return;
    stopSpinner();
    process.stderr.write('\n');
    process.exit(ExitCode.Interrupted);
  });
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    // A closed pipe (`voice ... | head -1`) is not a failure of ours.
    if (e.code === 'EPIPE') process.exit(ExitCode.Ok);
  });
}

/** Exits with `code` once stdout has taken everything written to it. */
export async function finish(code: number): Promise<never> {
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}
