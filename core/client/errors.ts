// Every failure the client reports is one of these. Callers branch on the class (or `status`)
// instead of parsing messages; the platform's own error body stays reachable on `body`.
import { VoiceError } from '../errors.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrase of a status, for messages when the transport did not give one. */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? '';
}

/** The human part of a platform error body: its `message` (arrays joined with '; '), `error`, or the text. */
export function detailOf(body: unknown): string {
  if (typeof body === 'string') return body.trim().slice(0, 500);
  if (body && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (Array.isArray(message)) return message.map(String).join('; ');
    if (typeof message === 'string' && message) return message;
    if (typeof error === 'string' && error) return error;
  }
  return '';
}

/** What an ApiError is built from. */
export interface ApiErrorInit {
  status: number;
  statusText?: string;
  body: unknown;
  /** The Response, created on first access when the transport was not fetch. */
  response: Response | (() => Response);
  requestId?: string | undefined;
}

/** The platform answered with a non-ok status. */
export class ApiError extends VoiceError {
  /** HTTP status code. */
  readonly status: number;
  /** The error body: parsed JSON when it was JSON, else the text. */
  readonly body: unknown;
  /** The request id header (`x-request-id`) when the platform sent one. */
  readonly requestId: string | undefined;
  #response: Response | (() => Response);

  constructor(init: ApiErrorInit) {
    const reason = init.statusText || statusText(init.status);
    const detail = detailOf(init.body);
    super(`${init.status}${reason ? ` ${reason}` : ''}${detail ? `: ${detail}` : ''}`);
    this.name = new.target.name;
    this.status = init.status;
    this.body = init.body;
    this.requestId = init.requestId;
    this.#response = init.response;
  }

  /** The HTTP response (its body already read into `body`). */
  get response(): Response {
    if (typeof this.#response === 'function') this.#response = this.#response();
    return this.#response;
  }
}

/** 400: the request was malformed or failed validation. */
export class BadRequestError extends ApiError {}
/** 401: the API key is missing or wrong. */
export class AuthenticationError extends ApiError {}
/** 403: the key may not do this. */
export class PermissionDeniedError extends ApiError {}
/** 404: no such resource. */
export class NotFoundError extends ApiError {}
/** 409: the request conflicts with the resource's state. */
export class ConflictError extends ApiError {}
/** 422: the body was understood but refused. */
export class UnprocessableEntityError extends ApiError {}
/** 429: too many requests; retried automatically before this is thrown. */
export class RateLimitError extends ApiError {}
/** 5xx: the platform failed; retried automatically before this is thrown. */
export class InternalServerError extends ApiError {}

/** Builds the ApiError subclass that matches a status. */
export function apiErrorFor(init: ApiErrorInit): ApiError {
  const { status } = init;
  if (status >= 500) return new InternalServerError(init);
  switch (status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new UnprocessableEntityError(init);
    case 429:
      return new RateLimitError(init);
    default:
      return new ApiError(init);
  }
}

/** No usable response arrived: the connection failed, was refused or was reset, or the answer was not HTTP. */
export class ConnectionError extends VoiceError {
  /** The cause's code when known (`ECONNREFUSED`, `ECONNRESET`, `EPROTO`, ...). */
  readonly code: string | undefined;

  constructor(message: string, options?: { cause?: unknown; code?: string | undefined }) {
    super(message, options);
    this.name = 'ConnectionError';
    this.code = options?.code;
  }
}

/** No response arrived within the timeout. */
export class TimeoutError extends VoiceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TimeoutError';
  }
}

/** The caller aborted the request through its signal. */
export class AbortError extends VoiceError {
  constructor(message = 'Request aborted', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AbortError';
  }
}

/** A path value (an id) is missing, empty or one too many: refused before anything is sent. */
export class PathValueError extends VoiceError {
  constructor(message: string) {
    super(message);
    this.name = 'PathValueError';
  }
}
