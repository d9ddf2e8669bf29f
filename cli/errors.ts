// The CLI's documented exit codes and the errors its commands throw. Commands throw CliError (or
// let core's errors through); fail.ts maps each to a message on stderr and its exit code.

/** Exit codes, documented in `voice --help` and the README. */
export const ExitCode = {
  /** Everything worked. */
  Ok: 0,
  /** The API or the network failed. */
  Failure: 1,
  /** Bad usage or bad input (flags, files, JSON). */
  Usage: 2,
  /** Credentials missing or rejected. */
  Auth: 4,
  /** Interrupted (Ctrl-C). */
  Interrupted: 130,
} as const;

/** One of the documented exit codes. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure with a message meant for the user and the exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.Failure,
    /** An extra line telling the user what to do next. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Shorthand for a usage error (exit 2). */
export function usageError(message: string, hint?: string): CliError {
  return new CliError(message, ExitCode.Usage, hint);
}

/** A confirmation the user answered with no: nothing was done, and that is said plainly, not as an error (exit 2). */
export class Declined extends CliError {
  constructor() {
    super('Cancelled: nothing was changed.', ExitCode.Usage);
    this.name = 'Declined';
  }
}

/** The exit code of a command `voice dev exec` ran, passed through as ours with no message of our own. */
export class PassThroughExit extends CliError {
  constructor(readonly code: number) {
    super(`the command exited with ${code}`, code as ExitCodeValue);
    this.name = 'PassThroughExit';
  }
}

/** Nothing listens where the emulator should be (it has not started yet, or stopped). */
export class NotAnswering extends Error {
  constructor(baseUrl: string, cause: unknown) {
    const port = new URL(baseUrl).port;
    super(`nothing answers at ${baseUrl}; start the emulator there: voice dev${port ? ` --port ${port}` : ''}`, { cause });
  }
}

/** A failure the tool reports to the model as a tool error (the message is what the model reads). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
