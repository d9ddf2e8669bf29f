// What happens after a call ends, in the platform's order: the structured outputs its assistant
// names are extracted on the model step (a failure recorded, never a guess), the end-of-call report
// is sent, then the artifacts bound for the org's own storage are written and `call.artifact.upload`
// says whether each one arrived.
import type { Json } from '../../messages/index.js';
import type { ChatMessage } from '../../model/index.js';
import type { Rec } from '../store/store.js';
import { extract } from '../../evals/extract.js';
import type { CallSession } from './session.js';
import { uploadArtifacts } from './storage.js';
import { isObject } from '../../json.js';

/** A call's conversation as chat messages (its artifact's, or its own messages). */
export function conversationOf(call: Rec): ChatMessage[] {
  const artifact = (call.artifact as Json | undefined) ?? {};
  const raw = (Array.isArray(artifact.messages) ? artifact.messages : Array.isArray(call.messages) ? call.messages : []) as Json[];
  const out: ChatMessage[] = [];
  for (const m of raw) {
    const text = typeof m.message === 'string' ? m.message : typeof m.content === 'string' ? m.content : '';
    if (m.role === 'user') out.push({ role: 'user', content: text });
    else if (m.role === 'bot' || m.role === 'assistant') out.push({ role: 'assistant', content: text });
  }
  return out;
}

/** The structured outputs an assistant asks for: stored ones by id, then transient ones (`artifactPlan.structuredOutputs`). */
function wantedOutputs(s: CallSession): { id: string; output: Json | undefined }[] {
  const plan = isObject(s.assistant?.artifactPlan) ? s.assistant.artifactPlan : {};
  const ids = Array.isArray(plan.structuredOutputIds) ? plan.structuredOutputIds.filter((id): id is string => typeof id === 'string') : [];
  const inline = Array.isArray(plan.structuredOutputs) ? plan.structuredOutputs.filter(isObject) : [];
  return [...ids.map((id) => ({ id, output: s.deps.store.get('structured-output', id) })), ...inline.map((output, i) => ({ id: String(output.id ?? `transient-${i + 1}`), output }))];
}

/** Extracts each structured output the call's assistant names into `artifact.structuredOutputs`. */
async function extractOutputs(s: CallSession): Promise<void> {
  const wanted = wantedOutputs(s);
  if (!wanted.length) return;
  const conversation = conversationOf(s.call);
  const found: Json = {};
  for (const { id, output } of wanted) {
    if (!output) {
      found[id] = { name: id, result: null, error: `no structured output ${id} exists` };
      s.log(`Structured output ${id} was not extracted: it does not exist`, 'WARN');
      continue;
    }
    const name = String(output.name ?? id);
    // The platform extracts on the output's model, else its own default (not the assistant's, which may be a custom LLM).
    const got = await extract(s.deps.model, output, conversation, undefined, `structured output ${name} call ${s.call.id}`);
    if (s.cancelled.signal.aborted) return;
    found[id] = got.ok ? { name, result: got.value } : { name, result: null, error: got.error };
    s.log(got.ok ? `Structured output ${name} extracted` : `Structured output ${name} was not extracted: ${got.error}`, got.ok ? 'INFO' : 'WARN');
  }
  const artifact = (s.call.artifact as Json | undefined) ?? {};
  s.call.artifact = { ...artifact, structuredOutputs: found, structuredOutputsLastUpdatedAt: new Date(s.deps.clock.now()).toISOString() };
  s.deps.store.touch(s.call);
  s.deps.changed();
}

/** Runs everything after the call's end: outputs, the end-of-call report, the org's storage. */
export async function afterCall(s: CallSession, endedReason: string): Promise<void> {
  await extractOutputs(s).catch((err: unknown) => s.log(`Structured outputs failed: ${(err as Error).message}`, 'ERROR'));
  if (s.cancelled.signal.aborted) return;
  void s.send('end-of-call-report', { endedReason });
  const uploads = await uploadArtifacts(s).catch((err: unknown) => {
    s.log(`Artifacts were not stored: ${(err as Error).message}`, 'ERROR');
    return [];
  });
  if (uploads.length && !s.cancelled.signal.aborted) void s.send('call.artifact.upload', { artifacts: uploads });
}
