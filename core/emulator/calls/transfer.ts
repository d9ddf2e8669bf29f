// A transfer the model asked for with a `transferCall` tool: the destination from the model's
// arguments or the tool's `destinations`, else asked of the developer's server with
// `transfer-destination-request`, as the platform does; then `transfer-update` and the call ends
// as forwarded.
import type { Json } from '../../messages/index.js';
import type { CallSession } from './session.js';

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The destination the model chose: `arguments.destination` names one of the tool's `destinations` (its number, SIP URI or assistant name). */
export function chosenDestination(tool: Json, args: Json): Json | undefined {
  const list = Array.isArray(tool.destinations) ? (tool.destinations as unknown[]).filter(isObject) : [];
  const named = args.destination;
  if (isObject(named)) return named;
  if (typeof named === 'string' && named) {
    const match = list.find((d) => d.number === named || d.sipUri === named || d.assistantName === named);
    return match ?? (named.startsWith('sip:') ? { type: 'sip', sipUri: named } : { type: 'number', number: named });
  }
  return list.length === 1 ? list[0] : undefined;
}

// The seam for the message builders of transfer-destination-request: the call sends it here and
// reads the answer's `destination` (or `error`).
async function askServer(s: CallSession): Promise<{ destination?: Json; error?: string }> {
  const delivered = await s.deps.clock.hold(s.send('transfer-destination-request', {}, { force: true }));
  if (!delivered) return { error: 'no server to send transfer-destination-request to (set the assistant\'s, the phone number\'s or the org\'s server)' };
  if (delivered.delivery.error) return { error: delivered.delivery.error };
  const answer = delivered.answer;
  if (typeof answer?.error === 'string' && answer.error) return { error: answer.error };
  if (isObject(answer?.destination)) return { destination: answer.destination };
  return { error: 'the answer has no destination' };
}

/** Transfers the call as the model asked; ends it as forwarded, or with the transfer failure. */
export async function transferCall(s: CallSession, tool: Json, args: Json): Promise<void> {
  let destination = chosenDestination(tool, args);
  if (!destination) {
    const asked = await askServer(s);
    if (s.ended) return;
    if (!asked.destination) {
      s.log(`Transfer failed: ${asked.error ?? 'no destination'}`, 'ERROR');
      return s.finish('call.in-progress.error-transfer-failed');
    }
    destination = asked.destination;
  }
  const message = typeof destination.message === 'string' && destination.message.trim() ? destination.message : undefined;
  if (message && !(await s.speak('assistant', message))) return;
  s.log(`Transfer to ${JSON.stringify(destination)}`);
  void s.send('transfer-update', { destination, ...(s.assistant ? { fromAssistant: s.assistant } : {}) });
  s.setStatus('forwarding');
  s.call.destination = destination;
  s.finish('assistant-forwarded-call');
}
