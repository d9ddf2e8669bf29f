// Turns anything thrown into a message on stderr and a documented exit code. Stack traces only
// with --verbose; unexpected errors are offered to the crash reporter.
import { ApiError, ConnectionError, TimeoutError, AbortError, PathValueError } from '#core/client/errors';
import { CliError, Declined, ExitCode, PassThroughExit } from './errors.js';
import type { ExitCodeValue } from './errors.js';
import { stopSpinner } from './output/spinner.js';
import { dim, red } from './output/style.js';
import { err } from './redact.js';

/** The exit code an error maps to. */
export function exitCodeOf(error: unknown): ExitCodeValue {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ApiError) return error.status === 401 ? ExitCode.Auth : ExitCode.Failure;
  if (error instanceof PathValueError) return ExitCode.Usage;
  return ExitCode.Failure;
}

function messageOf(error: ApiError): string {
  // ApiError.message is `404 Not Found: <platform message, arrays joined>`.
  return error.message;
}

/** Whether an error is one we expected (API, network, usage) rather than a bug. */
export function isExpected(error: unknown): boolean {
  return error instanceof CliError || error instanceof ApiError || error instanceof ConnectionError || error instanceof TimeoutError || error instanceof AbortError || error instanceof PathValueError;
}

/** Prints an error for people and returns its exit code. */
export function reportError(error: unknown, verbose: boolean): ExitCodeValue {
  stopSpinner();
  const code = exitCodeOf(error);
  if (error instanceof PassThroughExit) return code;
  if (error instanceof Declined) {
    err(`${error.message}\n`);
    return code;
  }
  const lines: string[] = [];
  if (error instanceof ApiError) {
    lines.push(`${red('Error:')} ${messageOf(error)}`);
    if (error.requestId) lines.push(dim(`Request id: ${error.requestId}`));
    if (error.status === 401) lines.push('The API key was rejected. Check it with `voice auth status`, or run `voice login`.');
    if (error.status === 403) lines.push('The API key is not allowed to do this.');
  } else if (error instanceof CliError) {
    lines.push(`${red('Error:')} ${error.message}`);
    if (error.hint) lines.push(error.hint);
  } else if (error instanceof ConnectionError || error instanceof TimeoutError) {
    lines.push(`${red('Error:')} ${error.message}`);
    lines.push('Check the API URL (`voice auth status`) and your network; `--local` targets `voice dev` on this machine.');
  } else if (error instanceof Error) {
    lines.push(`${red('Error:')} ${error.message}`);
    if (!isExpected(error) && !verbose) lines.push(dim('This looks like a bug in voice. Run again with --verbose for details.'));
  } else {
    lines.push(`${red('Error:')} ${String(error)}`);
  }
  if (verbose && error instanceof Error && error.stack && !(error instanceof CliError)) lines.push(dim(error.stack));
  err(`${lines.join('\n')}\n`);
  return code;
}
