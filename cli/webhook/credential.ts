// `voice trigger --credential ID`: the webhook credential's authentication plan, read through the
// API (the emulator's, or the platform's), so messages are signed the way the platform signs them.
import type { AuthenticationPlan } from 'voice-agent-core/verify';
import { isSigningPlan } from 'voice-agent-core/verify';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { addSecret } from '../redact.js';

/** Reads a credential and returns its bearer or HMAC plan; a usage error for any other credential. */
export async function signingPlan(ctx: Context, id: string): Promise<AuthenticationPlan> {
  ctx.requireKey();
  const cred = (await ctx.client().credential.get(id)) as { provider?: string; authenticationPlan?: unknown };
  const plan = cred.authenticationPlan;
  if (cred.provider !== 'webhook' || !isSigningPlan(plan)) {
    throw usageError(
      `Credential ${id} is not a webhook credential with a bearer or HMAC authentication plan (with its secret).`,
      'Create one with: voice credential create --set provider=webhook ... (see "Signed deliveries" in docs/testing.md).',
    );
  }
  // The secret never reaches a terminal, even when the server echoes it back.
  addSecret(plan.type === 'bearer' ? plan.token : plan.secretKey);
  return plan;
}
