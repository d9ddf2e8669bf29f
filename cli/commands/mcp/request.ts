// One way for the tools to reach the platform: the REST client's raw request with the bearer key,
// answering the status and parsed body. An error answer becomes a ToolError carrying the API's own
// message.
import { ApiError, createClient } from 'voice-agent-core/client';
import type { Client, RawRequest } from 'voice-agent-core/client';
import type { ToolContext } from './tool.js';
import { ToolError } from './tool.js';

/** A request to the platform the tools work on. */
export interface PlatformRequest {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Answer an error status instead of throwing (call_operation shows the platform's error as it is). */
  keepErrors?: boolean;
}

/** The status and parsed body of an answer. */
export interface PlatformAnswer {
  status: number;
  body: unknown;
}

const clients = new WeakMap<ToolContext, Client>();

/** The context's client, made once (its connection pool is kept between tool calls). */
function clientOf(ctx: ToolContext): Client {
  let client = clients.get(ctx);
  if (!client) clients.set(ctx, (client = createClient({ baseUrl: ctx.baseUrl, apiKey: ctx.apiKey, timeoutMs: 60_000 })));
  return client;
}

/** The platform's error message as one line. */
function messageOf(body: unknown): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  if (Array.isArray(message)) return message.join('; ');
  return String(message ?? (typeof body === 'string' ? body : JSON.stringify(body))).slice(0, 500);
}

/** Sends one request; throws a ToolError with the API's message for a non-2xx answer unless `keepErrors`. */
export async function platform(ctx: ToolContext, req: PlatformRequest): Promise<PlatformAnswer> {
  try {
    const { data, response } = await clientOf(ctx)
      .request({ method: req.method.toUpperCase() as 'GET', path: req.path, query: req.query as RawRequest['query'], body: req.body })
      .withResponse();
    return { status: response.status, body: data };
  } catch (err) {
    if (!(err instanceof ApiError)) throw new ToolError(`Could not reach ${ctx.baseUrl}: ${(err as Error).message}`);
    if (req.keepErrors) return { status: err.status, body: err.body };
    throw new ToolError(`${req.method} ${req.path} answered ${err.status}: ${messageOf(err.body)}`);
  }
}
