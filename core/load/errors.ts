// The load generator's errors: options that cannot run, and a request that failed.

/** Load options that cannot run. */
export class LoadOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoadOptionsError';
  }
}

/** A request failure with the code of its cause (`ECONNREFUSED`, ...), as the run reports it. */
export class HttpError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
