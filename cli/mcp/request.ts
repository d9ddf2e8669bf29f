// One way for the tools to reach the platform: a JSON request with the bearer key, the answer's
// status and parsed body. An error answer becomes a ToolError carrying the API's own message.
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

function queryString(query: Record<string, unknown> | undefined): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const one of Array.isArray(v) ? v : [v]) qs.append(k, String(one));
  }
  const text = qs.toString();
  return text ? `?${text}` : '';
}

/** Sends one request; throws a ToolError with the API's message for a non-2xx answer unless `keepErrors`. */
export async function platform(ctx: ToolContext, req: PlatformRequest): Promise<PlatformAnswer> {
  const url = `${ctx.baseUrl}${req.path}${queryString(req.query)}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: req.method,
      headers: { authorization: `Bearer ${ctx.apiKey}`, ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    throw new ToolError(`Could not reach ${ctx.baseUrl}: ${(err as Error).message}`);
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a CSV export): kept as text.
  }
  if (!res.ok && !req.keepErrors) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new ToolError(`${req.method} ${req.path} answered ${res.status}: ${Array.isArray(message) ? message.join('; ') : String(message ?? text).slice(0, 500)}`);
  }
  return { status: res.status, body };
}
