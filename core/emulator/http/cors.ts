// Who may call the emulator from a web page. A browser attaches `Origin` to cross-origin requests
// (and to every non-GET); a page the developer merely visits must not read or change the local
// platform, so only pages served from this machine (loopback origins) and the origins named with
// `--cors-origin` are answered. The operations a browser app calls with its public key (marked
// `browser` in the catalogue) answer any origin, as the platform does (but never a request a
// browser sends without a preflight). The checks themselves are the shared guard (core/net/guard.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../errors.js';
import { LOOPBACK_ORIGINS, RequestGuard } from '../../net/guard.js';

/** Who may call the emulator from a browser, besides pages on loopback origins. */
export interface CorsOptions {
  /** Extra allowed origins (`https://app.example`, `null`, or `*` for any). */
  origins?: readonly string[];
  /** The address the server is bound to (loopback turns on the Host check). */
  host?: string;
}

export { LOOPBACK_ORIGINS, isLoopbackHost, normaliseOrigin } from '../../net/guard.js';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'authorization, content-type, x-request-id';

/** Decides, per request, what a browser may do; shared by every response of one emulator. */
export class CorsPolicy {
  private readonly guard: RequestGuard;

  constructor(options: CorsOptions = {}) {
    this.guard = new RequestGuard({ pages: 'loopback', origins: options.origins, bind: options.host, name: 'this emulator', originFlag: '--cors-origin' });
  }

  /** Whether a page on this origin may call any operation. */
  allows(origin: string, req: IncomingMessage): boolean {
    return this.guard.allows(origin, req);
  }

  /**
   * Checks a request before it runs and sets its CORS headers. `browser` says whether the operation
   * is one browsers call with a public key. Throws a 403 HttpError for a page that may not call it.
   */
  admit(req: IncomingMessage, res: ServerResponse, browser: boolean): void {
    this.refuseUnless(req, browser);
    const origin = req.headers.origin;
    res.setHeader('vary', 'Origin');
    if (origin === undefined) return;
    res.setHeader('access-control-allow-origin', browser && !this.allows(origin, req) ? '*' : origin);
    res.setHeader('access-control-expose-headers', 'x-request-id');
  }

  /** Answers a preflight: 204 with the CORS headers for allowed pages, 403 otherwise. */
  preflight(req: IncomingMessage, res: ServerResponse, browser: boolean): void {
    // A preflight itself is never simple: the public-key operations grant it to any page.
    this.refuseUnless(req, browser);
    const origin = req.headers.origin;
    const allowed = origin === undefined || (browser && !this.allows(origin, req)) ? '*' : origin;
    res.writeHead(204, {
      'access-control-allow-origin': allowed,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    res.end();
  }

  /** Why a request (a web-call socket's upgrade) may not reach the emulator, or undefined. */
  refusal(req: IncomingMessage): string | undefined {
    return this.guard.check(req)?.message;
  }

  /** One line for the `voice dev` banner. */
  describe(): string {
    const extra = this.guard.extraOrigins;
    if (extra.includes('*')) return 'pages on any origin (--cors-origin *)';
    return `pages on ${LOOPBACK_ORIGINS.join(', ')}${extra.length ? `, ${extra.join(', ')}` : ''}`;
  }

  private refuseUnless(req: IncomingMessage, browser: boolean): void {
    const refused = this.guard.check(req, browser);
    if (refused) throw new HttpError(refused.status, refused.message);
  }
}
