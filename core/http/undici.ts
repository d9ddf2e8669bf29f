// core's one door to undici (the story of every outbound request is README.md beside this file).
// undici is imported on first use, never at start-up: importing it costs a one-shot CLI command
// more than its whole budget (~150 ms against a ~50 ms `node -e 0`), and a process that never
// sends never pays.
import type * as UndiciNs from 'undici';

/** The undici module. */
export type Undici = typeof UndiciNs;

/** Response headers as undici parses them (lower-case names; repeated headers as arrays). */
export type RawHeaders = Record<string, string | string[] | undefined>;

/** The value of a header in a raw map (repeated ones joined), or null. */
export function headerOf(headers: RawHeaders, name: string): string | null {
  const v = headers[name.toLowerCase()];
  if (v === undefined) return null;
  return Array.isArray(v) ? v.join(', ') : v;
}

/** undici's parts a sender uses, around one dispatcher (its keep-alive connection pools). */
export interface Pool {
  request: Undici['request'];
  dispatcher: UndiciNs.Dispatcher;
  parseHeaders: (raw: Buffer[]) => RawHeaders;
}

let loading: Promise<Undici> | undefined;

/** undici, imported once per process on first use. */
export function loadUndici(): Promise<Undici> {
  // Bundled (the CLI's esbuild bundle), undici is a CommonJS module whose exports sit on `default`.
  loading ??= import('undici').then((m) => ('Agent' in m ? m : (m as unknown as { default: Undici }).default));
  return loading;
}

/** A `Pool` over `dispatcher`. */
export function poolOf(u: Undici, dispatcher: UndiciNs.Dispatcher): Pool {
  return { request: u.request, dispatcher, parseHeaders: u.util.parseHeaders as Pool['parseHeaders'] };
}

let posts: Promise<Pool> | undefined;

/**
 * The process's pool for posts to developers' servers and model endpoints (server messages and the
 * model step): kept-alive connections, at most 256 per origin, so hundreds of calls in flight
 * reuse them instead of flooding a server's listen backlog.
 */
export function postPool(): Promise<Pool> {
  posts ??= loadUndici().then((u) => poolOf(u, new u.Agent({ keepAliveTimeout: 10_000, connections: 256 })));
  return posts;
}
