// Who takes part in a call, read from the call and the store: the assistant (inline or stored,
// with overrides), a squad's members, a workflow, the phone number, the org, and the tools.
import type { Json } from '../../messages/index.js';
import { deepMerge } from '../store/merge.js';
import type { Store } from '../store/store.js';
import { RUNS_THE_CALL } from '../../messages/answers.js';
import { isObject } from '../../json.js';

function plain(rec: Json | undefined): Json | undefined {
  if (!rec) return undefined;
  const { id: _i, orgId: _o, createdAt: _c, updatedAt: _u, ...rest } = rec;
  return structuredClone(rest);
}

/** An assistant from `{ assistant | assistantId, assistantOverrides }`; undefined when neither names one that exists. */
export function assistantFrom(store: Store, ref: Json, overrides?: unknown): Json | undefined {
  let found: Json | undefined;
  if (isObject(ref.assistant)) found = structuredClone(ref.assistant);
  else if (typeof ref.assistantId === 'string') found = plain(store.get('assistant', ref.assistantId));
  if (found && isObject(overrides ?? ref.assistantOverrides)) deepMerge(found, (overrides ?? ref.assistantOverrides) as Json);
  return found;
}

/** A squad's member assistants, in order, from `{ squad | squadId }`; undefined when none is named or found. */
export function squadFrom(store: Store, ref: Json): Json[] | undefined {
  const squad = isObject(ref.squad) ? ref.squad : typeof ref.squadId === 'string' ? store.get('squad', ref.squadId) : undefined;
  if (!squad || !Array.isArray(squad.members)) return undefined;
  const shared = isObject(squad.membersOverrides) ? squad.membersOverrides : undefined;
  const members: Json[] = [];
  for (const member of squad.members as Json[]) {
    const assistant = assistantFrom(store, member);
    if (!assistant) continue;
    if (shared) deepMerge(assistant, shared);
    if (isObject(ref.squadOverrides)) deepMerge(assistant, ref.squadOverrides);
    members.push(assistant);
  }
  return members.length ? members : undefined;
}

/** A workflow from `{ workflow | workflowId }`. */
export function workflowFrom(store: Store, ref: Json): Json | undefined {
  if (isObject(ref.workflow)) return structuredClone(ref.workflow);
  if (typeof ref.workflowId === 'string') return plain(store.get('workflow', ref.workflowId));
  return undefined;
}

/** Every tool an assistant (or workflow node) can use: `model.tools` inline, then `model.toolIds` from the store. */
export function toolsOf(store: Store, owner: Json | undefined): Json[] {
  const model = isObject(owner?.model) ? owner.model : owner;
  const out: Json[] = [];
  for (const t of (model?.tools as unknown[] | undefined) ?? []) if (isObject(t)) out.push(t);
  for (const id of (model?.toolIds as unknown[] | undefined) ?? []) {
    const stored = typeof id === 'string' ? store.get('tool', id) : undefined;
    if (stored) out.push(stored);
  }
  return out;
}

/** The function name of a tool (`function.name`), if it has one. */
export function toolName(tool: Json): string | undefined {
  const fn = tool.function as Json | undefined;
  return typeof fn?.name === 'string' ? fn.name : undefined;
}

/** The org the emulator runs as. */
export function orgOf(store: Store): Json | undefined {
  return store.get('org', store.orgId);
}

/** Who answers a call: an assistant, a squad (first member answers) or a workflow. */
export type Cast = { assistant: Json; members?: Json[] } | { workflow: Json };

/** Who answers for a call or an answer: its workflow, else its squad, else its assistant. */
export function castOf(deps: { store: Store }, ref: Json): Cast | undefined {
  const workflow = workflowFrom(deps.store, ref);
  if (workflow) return { workflow };
  const members = squadFrom(deps.store, ref);
  if (members) return { assistant: members[0] as Json, members };
  const assistant = assistantFrom(deps.store, ref);
  return assistant ? { assistant } : undefined;
}

/** What an `assistant-request` answer asks for: a cast, a forward, or the reason the call ends. */
export function readAnswer(deps: { store: Store }, answer: Json | undefined, failed: boolean): { cast?: Cast; forward?: Json; endedReason?: string } {
  if (failed || !answer) return { endedReason: 'assistant-request-failed' };
  if (typeof answer.error === 'string' && answer.error) return { endedReason: 'assistant-request-returned-error' };
  if (answer.destination && typeof answer.destination === 'object') return { forward: answer.destination as Json };
  const names = RUNS_THE_CALL.filter((k) => answer[k] !== undefined && answer[k] !== null);
  if (!names.length) return { endedReason: 'assistant-request-returned-no-assistant' };
  const cast = castOf(deps, { ...answer, ...(answer.squadOverrides ? { squadOverrides: answer.squadOverrides } : {}) });
  return cast ? { cast } : { endedReason: 'assistant-request-returned-invalid-assistant' };
}
