// The one guard every server the tools start on a developer's machine puts in front of its
// requests (the inventory of those servers is cli/servers.ts). A web page the developer merely
// visits can reach a loopback port in two ways, and both are refused here before anything runs:
//   - DNS rebinding: the page's own name is re-pointed at 127.0.0.1, so its requests are
//     same-origin and arrive with `Host: evil.example:PORT`. Only Host names that cannot be
//     rebound pass: loopback names, IP literals (rebinding needs a DNS name; Vite's rule too),
//     and names the developer gave.
//   - Cross-site requests: a page on another origin calls the server directly. A browser sends
//     `Origin` with every cross-origin request and every POST, so the page's origin is checked
//     against what the server's callers need (PagePolicy). "Simple" requests (a `text/plain`
//     form or `fetch(..., { mode: 'no-cors' })`) reach the server without a preflight and run
//     even though the page never reads the answer: they are refused by the same check, before
//     the handler runs, never by CORS headers afterwards.
// Requests without `Origin` (curl, the CLI, the platform's webhooks, a coding agent) are not
// pages and pass to the server's own authentication.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { VoiceError } from '../errors.js';

/** Which web pages may call a server, by what its callers are. */
export type PagePolicy =
  /** Pages served from this machine, on any port (apps under development call the local platform). */
  | 'loopback'
  /** Only pages this server itself serves (the demo page and its Call Me, `voice mcp --http`). */
  | 'self'
  /** No page at all: server-to-server callers only (webhook receivers). */
  | 'none';

/** How one server guards its requests. */
export interface GuardOptions {
  /** Which pages may call (see PagePolicy). */
  pages: PagePolicy;
  /** Origins allowed besides (`https://app.example`, `null`, or `*` for any page). */
  origins?: readonly string[];
  /** Host names allowed besides loopback names and IP literals (a tunnel's name, for instance). */
  hosts?: readonly string[];
  /**
   * The address the server listens on. Bound to another interface (`0.0.0.0`, a LAN address), it
   * is meant to be reached by names of other machines, so only `Host` names are not checked.
   */
  bind?: string;
  /** The `Host` header must name the port the request arrived on (a server with one known address). */
  exactPort?: boolean;
  /** Only loopback names pass as `Host` (no IP address of another interface): a loopback-only server. */
  loopbackOnly?: boolean;
  /** What the server is called in refusals (`voice mcp`, `the emulator`). */
  name?: string;
  /** The flag that adds an origin, named in the refusal (`--cors-origin`, `--allow-origin`). */
  originFlag?: string;
  /** The flag that adds a Host name, named in the refusal (`--allow-host`). */
  hostFlag?: string;
}

/** Why a request was refused: always 403, with which check refused it. */
export interface Refusal {
  status: 403;
  check: 'host' | 'origin' | 'simple';
  message: string;
}

/** Pages on these origins are always "this machine". */
export const LOOPBACK_ORIGINS = ['http://127.0.0.1:*', 'http://localhost:*', 'http://[::1]:*'] as const;

/** True for host names that always mean this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Normalises an origin flag's value (`scheme://host[:port]`, `null` or `*`); throws a message for anything else. */
export function normaliseOrigin(value: string): string {
  const v = value.trim();
  if (v === '*' || v === 'null') return v;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new VoiceError(`"${value}" is not an origin: expected scheme://host[:port], e.g. https://app.example or http://192.168.1.20:3000`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new VoiceError(`"${value}" is not an origin: leave out the path, e.g. ${url.origin}`);
  }
  return url.origin;
}

/** Splits a `Host` header into its name (brackets kept off) and port (undefined when absent or unreadable). */
export function parseHost(host: string): { name: string; port: number | undefined } {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.trim());
  if (!m) return { name: host.trim().toLowerCase(), port: undefined };
  return { name: (m[1] as string).replace(/^\[|\]$/g, '').toLowerCase(), port: m[2] === undefined ? undefined : Number(m[2]) };
}

const SIMPLE_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** Whether a browser sends this request without asking first (a CORS "simple" request). */
export function isSimpleRequest(req: IncomingMessage): boolean {
  const method = (req.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return false;
  if (req.headers.authorization !== undefined) return false;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' || SIMPLE_TYPES.has(type);
}

/** Decides, per request, whether it may run; shared by every request of one server. */
export class RequestGuard {
  private readonly origins: Set<string>;
  private readonly hosts: Set<string>;
  private readonly anyOrigin: boolean;
  private readonly hostChecked: boolean;

  constructor(private readonly options: GuardOptions) {
    this.origins = new Set((options.origins ?? []).map(normaliseOrigin));
    this.anyOrigin = this.origins.has('*');
    // A site the developer lets call the server may also be the name it is reached by.
    const originHosts = [...this.origins].flatMap((o) => (o === '*' || o === 'null' ? [] : [new URL(o).hostname.replace(/^\[|\]$/g, '')]));
    this.hosts = new Set([...(options.hosts ?? []), ...originHosts].map((h) => h.toLowerCase()));
    this.hostChecked = !this.anyOrigin && isLoopbackHost(options.bind ?? '127.0.0.1');
  }

  /** The extra origins, normalised. */
  get extraOrigins(): string[] {
    return [...this.origins];
  }

  /** Why the `Host` header is refused, or undefined when it names this machine. */
  checkHost(req: IncomingMessage): Refusal | undefined {
    const host = req.headers.host;
    // Browsers always send Host; only a hand-made HTTP/1.0 request has none, and it is no page.
    if (host === undefined || !this.hostChecked) return undefined;
    const { name, port } = parseHost(host);
    if (!(isLoopbackHost(name) || (!this.options.loopbackOnly && isIP(name) !== 0) || this.hosts.has(name))) {
      const fix = this.options.hostFlag ? ` (a name you trust: ${this.options.hostFlag} ${name})` : '';
      const names = this.options.loopbackOnly ? 'localhost, 127.0.0.1 and [::1]' : 'localhost, 127.0.0.1, [::1] and IP addresses';
      return refusal('host', `Host "${host}" is not this machine: ${this.name} answers only ${names}${fix}; a guard against DNS rebinding`);
    }
    if (this.options.exactPort && port !== req.socket.localPort) {
      return refusal('host', `Host "${host}" does not name the port ${this.name} serves (${req.socket.localPort ?? '?'}); a guard against DNS rebinding`);
    }
    return undefined;
  }

  /** Whether a page on `origin` may call this server (`req` tells which server it is, for `self`). */
  allows(origin: string, req: IncomingMessage): boolean {
    if (this.anyOrigin || this.origins.has(origin)) return true;
    if (this.options.pages === 'none') return false;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (this.options.pages === 'loopback') return isLoopbackHost(url.hostname);
    // 'self': the page came from this server: its origin is the address the request was sent to
    // (the Host, already checked), or this server's port under another loopback name.
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const own = req.headers.host !== undefined && url.host.toLowerCase() === req.headers.host.toLowerCase();
    return own || (isLoopbackHost(url.hostname) && port === req.socket.localPort);
  }

  /**
   * Checks a request before it runs: Host, then the page it comes from. `anyPage` marks an
   * operation every site may call with a key (the platform's public-key operations): then only
   * a request a browser would send without a preflight is refused from a page not allowed.
   */
  check(req: IncomingMessage, anyPage = false): Refusal | undefined {
    const host = this.checkHost(req);
    if (host) return host;
    const origin = req.headers.origin;
    if (origin === undefined) return this.checkFetchSite(req);
    if (this.allows(origin, req)) return undefined;
    if (anyPage && !isSimpleRequest(req)) return undefined;
    const fix = this.options.originFlag && origin !== 'null' ? ` Start it with ${this.options.originFlag} ${origin} to allow it.` : '';
    if (anyPage) return refusal('simple', `A page on ${origin} sent a request a browser sends without asking first (no preflight): ${this.name} runs such requests only for ${this.describe()}.${fix}`);
    return refusal('origin', `Origin ${origin} may not call ${this.name}: only ${this.describe()} may.${fix}`);
  }

  /** Who may call, in words (`pages on http://127.0.0.1:*, ...`). */
  describe(): string {
    if (this.anyOrigin) return 'pages on any origin';
    const extra = [...this.origins];
    const base = this.options.pages === 'loopback' ? `pages on ${LOOPBACK_ORIGINS.join(', ')}` : this.options.pages === 'self' ? 'its own pages' : 'callers that are not web pages';
    return `${base}${extra.length ? ` and pages on ${extra.join(', ')}` : ''}`;
  }

  private get name(): string {
    return this.options.name ?? 'this server';
  }

  // Without Origin: a browser still says where a request comes from in Sec-Fetch-Site (Chromium,
  // Firefox, Safari), so a page-made request that lost its Origin is refused too where pages are.
  private checkFetchSite(req: IncomingMessage): Refusal | undefined {
    const site = req.headers['sec-fetch-site'];
    if (typeof site !== 'string' || site === 'none' || site === 'same-origin') return undefined;
    const method = (req.method ?? 'GET').toUpperCase();
    if (this.options.pages !== 'none' && (method === 'GET' || method === 'HEAD')) return undefined;
    if (this.options.pages === 'loopback' && site === 'same-site') return undefined;
    return refusal('origin', `A web page on another site (Sec-Fetch-Site: ${site}) may not call ${this.name}: only ${this.describe()} may.`);
  }
}

/** Answers a refused request with its status and a JSON `{ error, message }` body. */
export function sendRefusal(res: ServerResponse, refused: Refusal): void {
  const body = JSON.stringify({ error: 'forbidden', message: refused.message });
  res.writeHead(refused.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' }).end(body);
}

/** Answers a refused WebSocket upgrade on its raw socket (no response object exists yet). */
export function refuseSocket(socket: Duplex, refused: Refusal): void {
  socket.end(`HTTP/1.1 ${refused.status} Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(refused.message)}\r\nConnection: close\r\n\r\n${refused.message}`);
}

function refusal(check: Refusal['check'], message: string): Refusal {
  return { status: 403, check, message };
}
