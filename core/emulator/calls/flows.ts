// How a call gets to its conversation: an outbound call rings the customer (magic numbers end
// their own way), an inbound one rings a phone number and may ask the developer's server which
// assistant answers (`assistant-request`); an answered call runs its conversation to the end.
import type { Json } from '../../messages/index.js';
import { converse, STAND_IN_REPLY } from './conversation.js';
import { chooseServer } from './deliver.js';
import { magicNumber } from './magic.js';
import { castOf, orgOf, readAnswer } from './resolve.js';
import type { Cast } from './resolve.js';
import type { Scenario } from './scenario.js';
import type { CallSession } from './session.js';
import { runWorkflow } from './workflow.js';
import { noteStackWithoutAudio } from './audio/sound.js';

/** The platform's default `maxDurationSeconds`. */
const DEFAULT_MAX_SECONDS = 600;

/** Runs an answered call to its end: a browser's conversation, a workflow, or the assistant's or squad's conversation. */
export async function answered(s: CallSession, cast: Cast, scenario: Scenario, browser?: (members?: Json[]) => Promise<void>): Promise<void> {
  await s.filled();
  if (browser && !('workflow' in cast)) {
    const max = Number(cast.assistant.maxDurationSeconds) || DEFAULT_MAX_SECONDS;
    void s.wait(max).then((still) => still && s.finish('exceeded-max-duration'));
    return browser(cast.members);
  }
  s.setStatus('in-progress');
  if ('assistant' in cast) s.audio?.ahead(cast.assistant, [STAND_IN_REPLY]);
  if (s.audio && !(await s.audio.openTranscriber())) return;
  noteStackWithoutAudio(s);
  s.maxSeconds = 'assistant' in cast ? Number(cast.assistant.maxDurationSeconds) || DEFAULT_MAX_SECONDS : DEFAULT_MAX_SECONDS;
  if ('workflow' in cast) return runWorkflow(s, cast.workflow, scenario);
  return converse(s, scenario, cast.members);
}

/** An outbound call: queued, ringing (magic numbers end their own way), then answered. */
export async function outbound(s: CallSession, scenario: Scenario): Promise<void> {
  const cast = castOf(s.deps, s.call);
  if (cast && 'assistant' in cast) s.assistant = cast.assistant;
  // Its first lines are made while the call is queued and rings.
  if (cast && 'assistant' in cast) s.audio?.ahead(cast.assistant, [STAND_IN_REPLY]);
  s.setStatus('queued');
  if (!(await s.wait(0.5))) return;
  if (!cast) {
    const named = ['assistantId', 'squadId', 'workflowId'].find((k) => typeof s.call[k] === 'string');
    return s.finish(named ? 'call.start.error-get-assistant' : 'call-start-error-neither-assistant-nor-server-set');
  }
  const magic = magicNumber(s.customer?.number);
  if (magic && magic.path.length === 0) return (await s.wait(1)) ? s.finish(magic.endedReason) : undefined;
  s.setStatus('ringing');
  if (magic?.endedReason === 'customer-did-not-answer') return (await s.wait(30)) ? s.finish(magic.endedReason) : undefined;
  if (magic?.endedReason === 'customer-busy') return (await s.wait(2)) ? s.finish(magic.endedReason) : undefined;
  if (!(await s.wait(3))) return;
  if (magic) {
    s.setStatus('in-progress');
    if (magic.endedReason === 'voicemail') {
      await s.filled();
      const line = s.assistant?.voicemailMessage;
      await s.speak('assistant', typeof line === 'string' && line.trim() ? line : 'Sorry we missed you. Please call us back.');
    } else {
      await s.wait(0.5);
    }
    return s.finish(magic.endedReason);
  }
  return answered(s, cast, scenario);
}

/** An inbound call to a phone number: its assistant, or the one the developer's server names (`assistant-request`), answers. */
export async function inbound(s: CallSession, pn: Json, scenario: Scenario): Promise<void> {
  let cast = castOf(s.deps, pn);
  if (cast && 'assistant' in cast) s.assistant = cast.assistant;
  // Until an assistant answers, status changes are recorded but not sent: assistant-request comes first.
  s.setStatus('ringing', undefined, !cast);
  if (!cast) {
    if (!chooseServer('assistant-request', { phoneNumber: pn, org: orgOf(s.deps.store) })) return s.finish('call-start-error-neither-assistant-nor-server-set');
    const delivered = await s.deps.clock.hold(s.send('assistant-request', {}, { force: true }));
    const got = readAnswer(s.deps, delivered?.answer, !delivered || Boolean(delivered.delivery.error));
    if (got.forward) {
      s.call.destination = got.forward;
      s.setStatus('forwarding');
      return s.finish('assistant-request-returned-forwarding-phone-number');
    }
    if (!got.cast) return s.finish(got.endedReason as string);
    cast = got.cast;
    if ('assistant' in cast) s.call.assistant = cast.assistant;
  }
  if ('assistant' in cast) s.assistant = cast.assistant;
  if (!(await s.wait(1))) return;
  return answered(s, cast, scenario);
}
