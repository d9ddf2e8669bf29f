// Who may call the emulator from a web page. A browser attaches `Origin` to cross-origin requests
// (and to every non-GET); a page the developer merely visits must not read or change the local
// platform, so only pages served from this machine (loopback origins) and the origins named with
// `--cors-origin` are answered. The operations a browser app calls with its public key (marked
// `browser` in the catalogue) answer any origin, as the platform does. Separately, a `Host`
// header that is not a loopback name is refused while bound to loopback (DNS rebinding).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../errors.js';
import { VoiceError } from '../../errors.js';

/** Who may call the emulator from a browser, besides pages on loopback origins. */
export interface CorsOptions {
  /** Extra allowed origins (`https://app.example`, `null`, or `*` for any). */
  origins?: readonly string[];
  /** The address the server is bound to (loopback turns on the Host check). */
  host?: string;
}

/** Origins always allowed: pages served from this machine, on any port, http or https. */
export const LOOPBACK_ORIGINS = ['http://127.0.0.1:*', 'http://localhost:*', 'http://[::1]:*'] as const;

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'authorization, content-type, x-request-id';

/** True for host names that always mean this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Normalises an `--cors-origin` value (`scheme://host[:port]`, `null` or `*`); throws a message for anything else. */
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

/** Decides, per request, what a browser may do; shared by every response of one emulator. */
export class CorsPolicy {
  private readonly extra: Set<string>;
  private readonly anyOrigin: boolean;
  private readonly checkHost: boolean;

  constructor(options: CorsOptions = {}) {
    this.extra = new Set((options.origins ?? []).map(normaliseOrigin));
    this.anyOrigin = this.extra.has('*');
    this.checkHost = isLoopbackHost(options.host ?? '127.0.0.1');
  }

  /** Whether a page on this origin may call any operation. */
  allows(origin: string): boolean {
    if (this.anyOrigin || this.extra.has(origin)) return true;
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
    } catch {
      return false;
    }
  }

  /**
   * Checks a request before it runs and sets its CORS headers. `browser` says whether the operation
   * is one browsers call with a public key. Throws a 403 HttpError for a page that may not call it.
   */
  admit(req: IncomingMessage, res: ServerResponse, browser: boolean): void {
    this.checkHostHeader(req);
    const origin = req.headers.origin;
    res.setHeader('vary', 'Origin');
    if (origin === undefined) return;
    if (browser) res.setHeader('access-control-allow-origin', '*');
    else if (this.allows(origin)) res.setHeader('access-control-allow-origin', origin);
    else throw refused(origin);
    res.setHeader('access-control-expose-headers', 'x-request-id');
  }

  /** Answers a preflight: 204 with the CORS headers for allowed pages, 403 otherwise. */
  preflight(req: IncomingMessage, res: ServerResponse, browser: boolean): void {
    this.checkHostHeader(req);
    const origin = req.headers.origin;
    const allowed = origin === undefined ? '*' : browser ? '*' : this.allows(origin) ? origin : undefined;
    if (allowed === undefined) throw refused(origin as string);
    res.writeHead(204, {
      'access-control-allow-origin': allowed,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    res.end();
  }

  /** One line for the `voice dev` banner. */
  describe(): string {
    if (this.anyOrigin) return 'pages on any origin (--cors-origin *)';
    const extra = [...this.extra];
    return `pages on ${LOOPBACK_ORIGINS.join(', ')}${extra.length ? `, ${extra.join(', ')}` : ''}`;
  }

  private checkHostHeader(req: IncomingMessage): void {
    if (!this.checkHost) return;
    const host = req.headers.host;
    if (host === undefined) return;
    const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
    if (!isLoopbackHost(hostname)) {
      throw new HttpError(403, `Host "${host}" is not this machine: the emulator on loopback answers only localhost, 127.0.0.1 and [::1] (a guard against DNS rebinding)`);
    }
  }
}

function refused(origin: string): HttpError {
  return new HttpError(
    403,
    `Origin ${origin} may not call this emulator: only pages on loopback origins (${LOOPBACK_ORIGINS.join(', ')}) may. Start voice dev with --cors-origin ${origin} to allow it`,
  );
}
