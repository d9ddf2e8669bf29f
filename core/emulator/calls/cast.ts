// Who answers a call: an assistant, a squad (its first member answers) or a workflow, from the
// call, its phone number, or the developer's answer to `assistant-request`.
import type { Json } from '../../messages/index.js';
import { RUNS_THE_CALL } from '../../messages/answers.js';
import { assistantFrom, squadFrom, workflowFrom } from './resolve.js';
import type { CallDeps } from './session.js';

/** Who answers a call: an assistant, a squad (first member answers) or a workflow. */
export type Cast = { assistant: Json; members?: Json[] } | { workflow: Json };

/** Who answers for `ref` (a call, a phone number, an assistant-request answer), if anyone. */
export function castOf(deps: Pick<CallDeps, 'store'>, ref: Json): Cast | undefined {
  const workflow = workflowFrom(deps.store, ref);
  if (workflow) return { workflow };
  const members = squadFrom(deps.store, ref);
  if (members) return { assistant: members[0] as Json, members };
  const assistant = assistantFrom(deps.store, ref);
  return assistant ? { assistant } : undefined;
}

/** What an `assistant-request` answer asks for: a cast, a forward, or the reason the call ends. */
export function readAnswer(deps: Pick<CallDeps, 'store'>, answer: Json | undefined, failed: boolean): { cast?: Cast; forward?: Json; endedReason?: string } {
  if (failed || !answer) return { endedReason: 'assistant-request-failed' };
  if (typeof answer.error === 'string' && answer.error) return { endedReason: 'assistant-request-returned-error' };
  if (answer.destination && typeof answer.destination === 'object') return { forward: answer.destination as Json };
  const names = RUNS_THE_CALL.filter((k) => answer[k] !== undefined && answer[k] !== null);
  if (!names.length) return { endedReason: 'assistant-request-returned-no-assistant' };
  const cast = castOf(deps, { ...answer, ...(answer.squadOverrides ? { squadOverrides: answer.squadOverrides } : {}) });
  return cast ? { cast } : { endedReason: 'assistant-request-returned-invalid-assistant' };
}

