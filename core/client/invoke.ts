// `invoke`: calls one operation (build, send, wrap the answer in an ApiPromise or ListPromise).
// Kept apart from client.ts, which walks the whole catalogue for its namespaces, so a caller that
// already holds its Op (the CLI's fast lane for reads) can send it without loading the catalogue.
import type { Op } from '../catalogue/define.js';
import type { BuiltRequest } from './build.js';
import { DEFAULT_BASE_URL, buildRequest, cacheHeaders } from './build.js';
import { ApiPromise, ListPromise } from './promise.js';
import type { SendSettings } from './send.js';
import { send } from './send.js';
import { fetchTransport } from './transport.js';
import type { ClientCore, ClientOptions, RequestOptions, WithResponse } from './types.js';

/** The client options with their defaults applied. */
export function settingsOf(options: ClientOptions): SendSettings {
  const s: SendSettings = {
    ...options,
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 500,
    transport: options.fetch ? fetchTransport(options.fetch) : (options.transport ?? fetchTransport()),
  };
  cacheHeaders(s);
  return s;
}

/** Sends a request built on demand; a build failure (a bad path value) rejects like any failure. */
export function sendBuilt<T>(s: SendSettings, build: () => BuiltRequest, options: RequestOptions | undefined): Promise<WithResponse<T>> {
  try {
    return send<T>(s, build(), options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** sendBuilt for a catalogue operation, without a closure per call (the hot path). */
function sendOp<T>(s: SendSettings, op: Op, pathValues: readonly unknown[], params: unknown, options: RequestOptions | undefined, query?: RequestOptions['query']): Promise<WithResponse<T>> {
  try {
    return send<T>(s, buildRequest(s, op, pathValues, params, query), options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The `invoke` of a client with these settings. */
export function invoker(s: SendSettings): ClientCore['invoke'] {
  return (op: Op, pathValues, params, reqOptions) => {
    const raw = sendOp<unknown>(s, op, pathValues, params, reqOptions, reqOptions?.query);
    if (!op.list) return new ApiPromise(raw);
    const fetchPage = (query: Record<string, unknown>): Promise<unknown> => sendOp<unknown>(s, op, pathValues, query, reqOptions).then((r) => r.data);
    const pageable = op.list === 'paginated' || op.query.includes('createdAtLt');
    return new ListPromise<unknown, unknown>(raw, op.list, params as Record<string, unknown> | undefined, fetchPage, pageable);
  };
}
