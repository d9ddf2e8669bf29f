// Who may post to `voice listen`: the platform and the emulator post server-to-server (no
// `Origin`), so no web page may (the shared guard, policy `none`); with a secret set, only senders
// holding it (`x-vapi-secret` or a bearer token, as the platform sends a server's secret) or, with
// a webhook credential, a valid bearer or HMAC signature. A signed request may arrive through a
// tunnel under any Host name; an unsigned one only under this machine's names or --allow-host.
import type { IncomingMessage } from 'node:http';
import { RequestGuard } from '#core/net/guard';
import { constantTimeEqual, verifyServerMessage } from 'voice-agent-core/verify';
import type { AuthenticationPlan } from 'voice-agent-core/verify';

/** How senders prove who they are (nothing: anyone who is not a web page). */
export interface SenderCheck {
  /** Shared secret: `x-vapi-secret: <secret>` or `Authorization: Bearer <secret>`. */
  secret?: string;
  /** A webhook credential's plan: its bearer token or HMAC signature. */
  plan?: AuthenticationPlan;
  /** Host names allowed besides this machine's (a tunnel's). */
  hosts?: readonly string[];
  /** The address the receiver is bound to. */
  bind: string;
}

/** Why a request may not be taken: the status and reason, never the secret. */
export interface Refused {
  status: 401 | 403;
  why: string;
}

function bearer(req: IncomingMessage): string | undefined {
  const m = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** Builds the checks of one receiver: `page(req)` before the body is read, `sender(req, raw)` after. */
export function receiverGuard(check: SenderCheck) {
  const guard = new RequestGuard({ pages: 'none', hosts: check.hosts, bind: check.bind, name: 'voice listen', hostFlag: '--allow-host' });
  const signed = check.secret !== undefined || check.plan !== undefined;
  return {
    /** Refuses web pages always, and foreign Host names unless senders must sign (checked later). */
    page(req: IncomingMessage): Refused | undefined {
      const refusal = guard.check(req);
      if (!refusal || (refusal.check === 'host' && signed)) return undefined;
      return { status: 403, why: refusal.message };
    },
    /** Refuses a sender without the secret or a valid signature (when one is required). */
    async sender(req: IncomingMessage, raw: Buffer): Promise<Refused | undefined> {
      if (check.secret !== undefined) {
        const sent = (req.headers['x-vapi-secret'] as string | undefined) ?? bearer(req);
        if (sent === undefined) return { status: 401, why: 'no secret: this voice listen takes messages sent with its --secret (x-vapi-secret or Authorization: Bearer)' };
        if (!constantTimeEqual(sent, check.secret)) return { status: 401, why: 'wrong secret (x-vapi-secret or Authorization: Bearer)' };
      }
      if (check.plan) {
        const url = `http://${req.headers.host ?? ''}${req.url ?? '/'}`;
        const verdict = await verifyServerMessage({ body: raw, headers: req.headers, plan: check.plan, url, method: req.method });
        if (!verdict.valid) return { status: 401, why: `not signed with the credential: ${verdict.reason}` };
      }
      return undefined;
    },
  };
}
