// One load call, run by the emulator's call engine (its session, simulated clock and scripted
// conversation): an outbound call rings and is answered; an inbound call first asks the server
// which assistant answers (`assistant-request`) and ends the way the platform does when the answer
// is late, failed or unusable.
import type { Json } from '../messages/index.js';
import { converse } from '../emulator/calls/index.js';
import type { CallSession, Scenario } from '../emulator/calls/index.js';

/** The platform's default `maxDurationSeconds`. */
const DEFAULT_MAX_SECONDS = 600;

async function answered(s: CallSession, scenario: Scenario): Promise<void> {
  await s.filled();
  s.setStatus('in-progress');
  s.maxSeconds = Number(s.assistant?.maxDurationSeconds) || DEFAULT_MAX_SECONDS;
  await converse(s, scenario);
}

/** An outbound call: queued, ringing, answered by the customer, then the conversation. */
export async function outbound(s: CallSession, assistant: Json, scenario: Scenario): Promise<void> {
  s.assistant = assistant;
  s.setStatus('queued');
  if (!(await s.wait(0.5))) return;
  s.setStatus('ringing');
  if (!(await s.wait(3))) return;
  await answered(s, scenario);
}

/** What an `assistant-request` answer leads to: an assistant, or the reason the call ends. */
function readAnswer(answer: Json | undefined, failed: boolean, assistant: Json): { assistant?: Json; forward?: Json; endedReason?: string } {
  if (failed || !answer) return { endedReason: 'assistant-request-failed' };
  if (typeof answer.error === 'string' && answer.error) return { endedReason: 'assistant-request-returned-error' };
  if (answer.destination && typeof answer.destination === 'object') return { forward: answer.destination as Json };
  const names = ['assistant', 'assistantId', 'squad', 'squadId', 'workflow', 'workflowId'].filter((k) => answer[k] !== undefined && answer[k] !== null);
  if (!names.length) return { endedReason: 'assistant-request-returned-no-assistant' };
  // A transient assistant talks as itself; an id names one on the platform, which the run stands in for.
  const inline = answer.assistant;
  if (inline !== undefined && (typeof inline !== 'object' || inline === null || Array.isArray(inline))) return { endedReason: 'assistant-request-returned-invalid-assistant' };
  return { assistant: inline ? { ...(inline as Json) } : assistant };
}

/** An inbound call: `assistant-request` under its deadline, then the answering assistant's conversation. */
export async function inbound(s: CallSession, assistant: Json, scenario: Scenario): Promise<void> {
  // Until an assistant answers, status changes are not sent: assistant-request comes first.
  s.setStatus('ringing', undefined, true);
  const delivered = await s.deps.clock.hold(s.send('assistant-request', {}, { force: true }));
  const got = readAnswer(delivered?.answer, !delivered || Boolean(delivered.delivery.error), assistant);
  if (got.forward) {
    s.setStatus('forwarding');
    s.call.destination = got.forward;
    return s.finish('assistant-request-returned-forwarding-phone-number');
  }
  if (!got.assistant) return s.finish(got.endedReason as string);
  s.assistant = got.assistant;
  if (!(await s.wait(1))) return;
  await answered(s, scenario);
}
