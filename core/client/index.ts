// The REST client, browser-safe: no Node built-ins anywhere in this module graph. Node callers
// import `./node.js`, which adds the pooled, proxy-aware transport and uploads from file paths.
export { createClient } from './client.js';
export { buildRequest, encodeQuery, fillPath, DEFAULT_BASE_URL } from './build.js';
export type { BuiltRequest, OpLike } from './build.js';
export {
  ApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  ConnectionError,
  TimeoutError,
  AbortError,
  PathValueError,
} from './errors.js';
export type { ApiErrorInit } from './errors.js';
export { VoiceError } from '../errors.js';
export { ApiPromise, ListPromise } from './promise.js';
export { fetchTransport } from './transport.js';
export type { Transport, TransportRequest, TransportResponse } from './transport.js';
export { guessContentType, toFormData } from './multipart.js';
export type { Client, ClientCore, ClientOptions, RequestOptions, RawRequest, WithResponse, Namespace, MethodOf, ArgsOf, ReturnOf, ParamsArg, ItemOf } from './types.js';
export { catalogue } from '../catalogue/index.js';
export type { Catalogue, Upload, UploadSource } from '../catalogue/index.js';
export type * from '../catalogue/models.js';
export { VERSION } from '../version.js';
