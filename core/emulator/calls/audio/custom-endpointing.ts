// The developer's own endpointing (`startSpeakingPlan.smartEndpointingPlan.provider:
// custom-endpointing-model`): each customer transcript is posted as `call.endpointing.request`
// with the conversation so far and that transcript as the latest user message, to the plan's
// `server` (else the assistant's, then the org's); the answer's `timeoutSeconds` (0 to 15) is how
// long the turn is held after the speech, and a new transcript within it asks again (the wait
// starts over). The request does not hold the call's clock: the turn's wait is the answer's. A
// failed request (refused, timeout, non-2xx, an answer without a usable `timeoutSeconds`) falls
// back to the transcription endpointing plan, and the call's log says so. Each answer (or failure)
// is a timeline event, for the inspector.
import type { ConversationMessage, Json } from '../../../messages/index.js';
import { chooseServer, deliver, serverOf, withCredential } from '../deliver.js';
import { orgOf } from '../resolve.js';
import type { CallAudio } from './engine.js';
import type { Endpointing } from './rules.js';
import { endpointingOf } from './rules.js';
import { startPlanOf } from './plans.js';
import { isObject } from '../../../json.js';

/** The smart endpointing provider that asks the developer's server. */
export const CUSTOM_ENDPOINTING = 'custom-endpointing-model';

/** The rule a turn names when the developer's endpointing decided it. */
export const CUSTOM_RULE = 'custom-endpointing-model';

/** How a customer transcript's endpointing wait is decided for this call: by the developer's server, or undefined (the local rules). */
export function customEndpointing(a: CallAudio): ((transcript: string) => Promise<Endpointing>) | undefined {
  const s = a.s;
  const start = s.assistant?.startSpeakingPlan;
  const plan = isObject(start) && isObject(start.smartEndpointingPlan) ? start.smartEndpointingPlan : undefined;
  if (plan?.provider !== CUSTOM_ENDPOINTING) return undefined;
  return async (transcript) => {
    const { store } = s.deps;
    const target = withCredential(serverOf(plan) ?? chooseServer('call.endpointing.request', { assistant: s.assistant, phoneNumber: s.phoneNumber, org: orgOf(store) }), (id) =>
      store.get('credential', id),
    );
    const fallback = (cause: string): Endpointing => {
      const local = endpointingOf(transcript, a.lastAssistant, startPlanOf(s.assistant));
      a.timeline.add({ type: 'endpointing', at: a.now(), ...(target ? { url: target.url } : {}), transcript, timeoutSeconds: local.seconds, failed: cause });
      s.log(`Custom endpointing failed (${cause}): the transcription endpointing plan decided (${local.rule}, ${local.seconds} s) for "${transcript}"`, 'WARN');
      return local;
    };
    if (!target) return fallback("no server: set smartEndpointingPlan.server, the assistant's server or the org's");
    const now = s.stamp();
    const latest: ConversationMessage = { role: 'user', message: transcript, time: now.time, endTime: now.time, secondsFromStart: now.secondsFromStart };
    const message = s.message('call.endpointing.request', { messages: [...s.messages, latest] });
    const got = await deliver(s.deps.record, target, s.call.id, message, s.cancelled.signal);
    if (got.delivery.error) return fallback(`${target.url}: ${got.delivery.error}`);
    const seconds = (got.answer as Json | undefined)?.timeoutSeconds;
    if (typeof seconds !== 'number' || !(seconds >= 0 && seconds <= 15))
      return fallback(`${target.url}: the answer has no timeoutSeconds from 0 to 15 (${JSON.stringify(got.delivery.answer ?? null).slice(0, 80)})`);
    a.timeline.add({ type: 'endpointing', at: a.now(), url: target.url, transcript, timeoutSeconds: seconds });
    return { seconds, rule: CUSTOM_RULE };
  };
}
