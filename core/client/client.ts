// createClient: one namespace per catalogue resource, each method a thin call to `invoke`.
import { catalogue } from '../catalogue/catalogue.js';
import type { Group, Op } from '../catalogue/define.js';
import { isOp, pathParamNames } from '../catalogue/define.js';
import type { BuiltRequest } from './build.js';
import { baseHeaders, encodeQuery, joinUrl } from './build.js';
import { invoker, sendBuilt, settingsOf } from './invoke.js';
import { ApiPromise } from './promise.js';
import type { Client, ClientCore, ClientOptions, RawRequest, RequestOptions } from './types.js';

function hasParams(op: Op): boolean {
  return op.body !== 'none' || op.query.length > 0;
}

/** Creates a client for the platform API. */
export function createClient(options: ClientOptions = {}): Client {
  const s = settingsOf(options);

  const invoke = invoker(s);

  const request: ClientCore['request'] = (req: RawRequest) =>
    new ApiPromise(
      sendBuilt<unknown>(
        s,
        () => {
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
        },
        req,
      ),
    );

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
