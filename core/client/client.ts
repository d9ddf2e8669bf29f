// createClient: one namespace per catalogue resource, each method a thin call to `invoke`.
import { catalogue } from '../catalogue/catalogue.js';
import type { Group, Op } from '../catalogue/define.js';
import { isOp, pathParamNames } from '../catalogue/define.js';
import type { BuiltRequest } from './build.js';
import { DEFAULT_BASE_URL, baseHeaders, buildRequest, cacheHeaders, encodeQuery, joinUrl } from './build.js';
import { ApiPromise, ListPromise } from './promise.js';
import type { SendSettings } from './send.js';
import { send } from './send.js';
import { fetchTransport } from './transport.js';
import type { Client, ClientCore, ClientOptions, RawRequest, RequestOptions, WithResponse } from './types.js';

function settingsOf(options: ClientOptions): SendSettings {
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

function sendBuilt<T>(s: SendSettings, build: () => BuiltRequest, options: RequestOptions | undefined): Promise<WithResponse<T>> {
  try {
    return send<T>(s, build(), options);
  } catch (error) {
    // A bad path value is refused before sending, surfaced through the promise like any failure.
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

function hasParams(op: Op): boolean {
  return op.body !== 'none' || op.query.length > 0;
}

/** Creates a client for the platform API. */
export function createClient(options: ClientOptions = {}): Client {
  const s = settingsOf(options);

  const invoke: ClientCore['invoke'] = (op, pathValues, params, reqOptions) => {
    const raw = sendOp<unknown>(s, op, pathValues, params, reqOptions, reqOptions?.query);
    if (!op.list) return new ApiPromise(raw);
    const fetchPage = (query: Record<string, unknown>): Promise<unknown> =>
      sendOp<unknown>(s, op, pathValues, query, reqOptions).then((r) => r.data);
    const pageable = op.list === 'paginated' || op.query.includes('createdAtLt');
    return new ListPromise<unknown, unknown>(raw, op.list, params as Record<string, unknown> | undefined, fetchPage, pageable);
  };

  const request: ClientCore['request'] = (req: RawRequest) =>
    new ApiPromise(sendBuilt<unknown>(s, () => {
      const bodyKind = req.body === undefined ? 'none' : (req.bodyKind ?? 'json');
      const headers = baseHeaders(s, req.auth ?? 'bearer');
      const built: BuiltRequest = { method: req.method, url: joinUrl(s.baseUrl, req.path, encodeQuery(req.query)), headers, bodyKind };
      if (bodyKind === 'json') {
        headers['content-type'] = 'application/json';
        built.body = JSON.stringify(req.body);
      } else if (bodyKind === 'multipart') {
        built.body = req.body as BuiltRequest['body'];
      }
      return built;
    }, req));

  const methodFor = (op: Op): ((...args: unknown[]) => unknown) => {
    const count = pathParamNames(op.path).length;
    const withParams = hasParams(op);
    return (...args: unknown[]) => {
      const params = withParams ? args[count] : undefined;
      const reqOptions = args[count + (withParams ? 1 : 0)] as RequestOptions | undefined;
      return invoke(op, args.slice(0, count) as string[], params, reqOptions);
    };
  };

  const namespace = (group: Group): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, node] of Object.entries(group)) out[key] = isOp(node) ? methodFor(node) : namespace(node);
    return out;
  };

  const core: ClientCore = { invoke, request, options: Object.freeze({ ...options }) };
  return Object.assign(namespace(catalogue as unknown as Group), core) as unknown as Client;
}
