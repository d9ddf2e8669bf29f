// The official server SDK's operations, found by walking its resource clients and asking each
// method which request it makes: a probe client whose `fetcher` (a public SDK option) records the
// request instead of sending it, called with a request whose every field reads as `{name}`. The
// URL then names the path template, and where the request went (spread into the body, under
// `body`, the body itself, a file form) says how a request is built. Nothing is listed by hand.
import { VapiClient } from '@vapi-ai/server-sdk';

type Args = Parameters<NonNullable<ConstructorParameters<typeof VapiClient>[0]['fetcher']>>[0];
type Method = (this: unknown, request?: unknown) => Promise<unknown>;

/** How an SDK method carries its request body. */
export type BodyMode = 'none' | 'spread' | 'nested' | 'whole' | 'file';

/** One operation of the SDK: `assistants.update` is `PATCH /assistant/{id}`, its body spread beside `id`. */
export interface SdkOperation {
  /** `resource.method`, as a developer writes it after `client.`. */
  name: string;
  method: string;
  /** The path template, `{name}` for each value the request carries under that name. */
  path: string;
  params: string[];
  body: BodyMode;
  /** Calls the method on `client` (a method without a request is called without one). */
  invoke(client: VapiClient, request: object): Promise<unknown>;
}

const PROBE_BASE = 'http://sdk-probe.invalid';

/** Every method of every resource client of the SDK (getters on the client, methods on their prototypes). */
function methodsOf(client: VapiClient): { name: string; owner: (c: VapiClient) => object; fn: Method }[] {
  const found: { name: string; owner: (c: VapiClient) => object; fn: Method }[] = [];
  const walk = (owner: (c: VapiClient) => object, prefix: string): void => {
    const proto = Object.getPrototypeOf(owner(client)) as object;
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || key.startsWith('_')) continue;
      const d = Object.getOwnPropertyDescriptor(proto, key);
      if (d?.get) walk((c) => (owner(c) as Record<string, object>)[key] as object, `${prefix}${key}.`);
      else if (typeof d?.value === 'function') found.push({ name: `${prefix}${key}`, owner, fn: d.value as Method });
    }
  };
  for (const key of Object.getOwnPropertyNames(VapiClient.prototype)) {
    const d = Object.getOwnPropertyDescriptor(VapiClient.prototype, key);
    // `fetch` is the SDK's passthrough for requests it has no method for: not an operation.
    if (d?.get) walk((c) => (c as unknown as Record<string, object>)[key] as object, `${key}.`);
  }
  return found;
}

/** The SDK's operations, each probed once without a network. */
export async function sdkOperations(): Promise<SdkOperation[]> {
  let seen: Args | undefined;
  const probe = new VapiClient({
    token: 'probe',
    baseUrl: PROBE_BASE,
    maxRetries: 0,
    fetcher: (args) => {
      seen = args;
      const rawResponse = { headers: new Headers(), redirected: false, status: 200, statusText: 'OK', type: 'basic' as const, url: args.url };
      return Promise.resolve({ ok: true as const, body: undefined as never, rawResponse });
    },
  });
  const marker = new Proxy({}, { get: (_t, key) => (typeof key === 'string' ? `{${key}}` : undefined) });
  // An upload reads its file field as a file: for it, every field is one (an upload has no path values).
  const files = new Proxy({}, { get: (_t, key) => (typeof key === 'string' ? new Blob([key]) : undefined) });
  const operations: SdkOperation[] = [];
  for (const { name, owner, fn } of methodsOf(probe)) {
    seen = undefined;
    // A method whose only parameter is its request options takes no request.
    const takesRequest = fn.length !== 1;
    await (takesRequest ? fn.call(owner(probe), marker).catch(() => fn.call(owner(probe), files)) : fn.call(owner(probe)));
    if (!seen) throw new Error(`client.${name} made no request when probed`);
    const args: Args = seen;
    const path = decodeURIComponent(new URL(args.url).pathname);
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    const body: BodyMode = args.requestType === 'file' ? 'file' : args.body === undefined ? 'none' : args.body === marker ? 'whole' : typeof args.body === 'string' ? 'nested' : 'spread';
    const key = name.split('.').at(-1) as string;
    operations.push({
      name,
      method: args.method,
      path,
      params,
      body,
      invoke: (client, request) => {
        const target = owner(client) as Record<string, Method>;
        return takesRequest ? (target[key] as Method).call(target, request) : (target[key] as Method).call(target);
      },
    });
  }
  return operations;
}
