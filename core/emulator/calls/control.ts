// `phone-call-control`: when an assistant subscribes to it on a phone call, the platform no longer
// hangs up or forwards the call itself but asks the developer's server to (their telephony provider
// does it). The emulator sends the request, waits for its delivery, then ends the call the way that
// provider would have: hung up, or forwarded.
import type { Json } from '../../messages/index.js';
import { isSubscribed } from '../../messages/index.js';
import type { CallSession } from './session.js';

/** Whether hang-ups and forwarding are the developer's server's on this call. */
export function delegatesControl(s: CallSession): boolean {
  return s.call.type !== 'webCall' && isSubscribed({ type: 'phone-call-control' }, s.assistant?.serverMessages as string[] | undefined);
}

/** Sends `phone-call-control` and waits for its delivery (the call's clock held meanwhile). */
export async function delegate(s: CallSession, request: 'hang-up' | 'forward', destination?: Json): Promise<void> {
  s.log(`${request === 'hang-up' ? 'Hang-up' : 'Forwarding'} delegated to your server (phone-call-control): the platform does not do it itself`);
  await s.deps.clock.hold(s.send('phone-call-control', { request, ...(destination ? { destination } : {}) }));
}

/** The assistant hangs up: itself, or through the developer's server when it subscribes to `phone-call-control`. */
export async function hangUp(s: CallSession, endedReason = 'assistant-ended-call'): Promise<void> {
  if (delegatesControl(s)) await delegate(s, 'hang-up');
  s.finish(endedReason);
}
