// The emulator's errors: HttpError (an answer in the platform's error body shape), and the
// errors of its scenario files, data files and control client.
import { statusText } from '../client/errors.js';
import { VoiceError } from '../errors.js';

/** The platform's error body: `message` is an array for validation failures. */
export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
}

/** A failure that becomes an HTTP response with the platform's error body. */
export class HttpError extends VoiceError {
  constructor(
    readonly status: number,
    readonly detail: string | string[],
  ) {
    super(Array.isArray(detail) ? detail.join('; ') : detail);
    this.name = 'HttpError';
  }

  /** The JSON body sent for this error. */
  body(): ErrorBody {
    return { statusCode: this.status, message: this.detail, error: reasonPhrase(this.status) };
  }
}

/** The standard reason phrase of a status code. */
export function reasonPhrase(status: number): string {
  return statusText(status) || (status >= 500 ? 'Internal Server Error' : 'Error');
}

/** A 400 with validation messages (always an array, like the platform). */
export function badRequest(messages: string | string[]): HttpError {
  return new HttpError(400, Array.isArray(messages) ? messages : [messages]);
}

/** A 404 for a missing object, e.g. `Assistant not found`. */
export function notFound(label: string): HttpError {
  return new HttpError(404, `${label} not found`);
}

/** A scenario file that cannot be used. */
export class ScenarioError extends VoiceError {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** A data file that cannot be used; the file is left exactly as it was. */
export class DataFileError extends VoiceError {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Data file ${file} ${reason}. Nothing was written to it; fix it, move it away, or pass another data file.`);
    this.name = 'DataFileError';
  }
}

/** The data file is held by another running emulator (or `voice dev`). */
export class DataFileInUseError extends DataFileError {
  constructor(file: string) {
    super(file, 'is in use by another running emulator');
    this.message = `Data file ${file} is in use by another running emulator (it holds ${file}.lock). Nothing was read or written.`;
    this.name = 'DataFileInUseError';
  }
}

/** Nothing answered at the emulator's address. */
export class ControlUnreachableError extends VoiceError {
  constructor(
    readonly base: string,
    options?: { cause?: unknown },
  ) {
    super(`No emulator answers at ${base}.`, options);
    this.name = 'ControlUnreachableError';
  }
}
