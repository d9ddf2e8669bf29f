// `voice demo` behind the shared guard (core/net/guard.ts): its page, its modules, the
// visitors endpoint, Call Me and Vite's HMR socket answer only the demo page itself (and callers
// that are no page: curl, scripts), under Host names that cannot be rebound. Vite's own Host check
// is turned off in favour of this one (the same rule: loopback names and IP addresses), so every
// server of the CLI refuses in the same words.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { RequestGuard, refuseSocket, sendRefusal } from '#core/net/guard';

/** The guard of one demo server (`bind`: the address it listens on, `--host`). */
export function demoGuard(bind: string, log: (line: string) => void) {
  // As Vite's own check did: Host names are checked on every address (other machines reach the
  // page by IP), and a name given with --host is one of them.
  const named = isIP(bind.replace(/^\[|\]$/g, '')) === 0 && bind !== '' ? [bind] : [];
  const guard = new RequestGuard({ pages: 'self', hosts: named, name: 'voice demo' });
  const said = (req: IncomingMessage, check: string): void =>
    log(
      `voice demo: refused ${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]} from ${check === 'host' ? `Host ${req.headers.host ?? ''}` : `another origin (${req.headers.origin ?? String(req.headers['sec-fetch-site'])})`}`,
    );
  return {
    /** Connect middleware: refuses before any other middleware runs. */
    middleware(req: IncomingMessage, res: ServerResponse, next: () => void): void {
      const refused = guard.check(req);
      if (!refused) return next();
      said(req, refused.check);
      sendRefusal(res, refused);
    },
    /** Puts the guard in front of every `upgrade` listener the server has now (Vite's HMR socket). */
    wrapUpgrades(server: Server): void {
      const listeners = server.listeners('upgrade') as ((req: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
      server.removeAllListeners('upgrade');
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const refused = guard.check(req);
        if (!refused) for (const listener of listeners) listener.call(server, req, socket, head);
        else {
          said(req, refused.check);
          refuseSocket(socket, refused);
        }
      });
    },
  };
}
