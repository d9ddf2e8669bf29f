// The developer's own knowledge base (`model.knowledgeBase` with `provider: custom-knowledge-base`,
// or `model.knowledgeBaseId` naming one): before each model turn the call posts
// `knowledge-base-request` (`messages`, `messagesOpenAIFormatted`) to the knowledge base's server.
// An answer's `documents` go to the model with the conversation, as one system message before the
// customer's latest words (the reference says only that they are sent alongside the messages; this
// is where a local run puts them); an answer's `message` is spoken instead of the model's output.
// A failed request (refused, timeout, non-2xx, an answer with neither) is logged and the turn goes
// on without documents, as the platform does. The call's clock is held while it waits. A call with
// sound notes each answer (or failure) on its timeline, for the inspector.
import type { Json } from '../../messages/index.js';
import type { ChatMessage } from '../../model/index.js';
import { deliver, serverOf, withCredential } from './deliver.js';
import type { KnowledgeBaseEvent } from './audio/timeline.js';
import type { CallSession } from './session.js';
import { isObject } from '../../json.js';

/** The provider of the developer's own knowledge base. */
export const CUSTOM_KB = 'custom-knowledge-base';

/** What a knowledge base gave a turn: documents for the model, or a line to say instead of its answer. */
export type KnowledgeAnswer = { documents: { content: string; similarity?: number }[] } | { say: string } | undefined;

/** The assistant's custom knowledge base: inline on its model, or the stored one its model names. */
function knowledgeBaseOf(s: CallSession): Json | undefined {
  const model = s.assistant?.model;
  if (!isObject(model)) return undefined;
  const kb = isObject(model.knowledgeBase) ? model.knowledgeBase : typeof model.knowledgeBaseId === 'string' ? s.deps.store.get('knowledge-base', model.knowledgeBaseId) : undefined;
  return kb?.provider === CUSTOM_KB ? kb : undefined;
}

/** Asks the assistant's custom knowledge base about the conversation so far; undefined when it has none or the ask failed (logged). */
export async function askKnowledgeBase(s: CallSession): Promise<KnowledgeAnswer> {
  const kb = knowledgeBaseOf(s);
  if (!kb) return undefined;
  const { store, record } = s.deps;
  const target = withCredential(serverOf(kb), (id) => store.get('credential', id));
  const note = (event: Omit<KnowledgeBaseEvent, 'type' | 'at'>): void => void s.audio?.timeline.add({ type: 'knowledge-base', at: s.audio.now(), ...event });
  const failed = (cause: string): undefined => {
    note({ ...(target ? { url: target.url } : {}), documents: [], failed: cause });
    s.log(`The knowledge base failed (${cause}): the turn goes on without documents`, 'WARN');
    return undefined;
  };
  if (!target) return failed('it has no server.url');
  const got = await deliver(record, target, s.call.id, s.message('knowledge-base-request'), s.cancelled.signal);
  if (got.delivery.error) return failed(`${target.url}: ${got.delivery.error}`);
  const answer = got.answer ?? {};
  const message = isObject(answer.message) ? answer.message : undefined;
  if (typeof message?.content === 'string' && message.content.trim()) {
    note({ url: target.url, documents: [], say: message.content });
    s.log(`The knowledge base answered with a message: it is said instead of the model's answer`);
    return { say: message.content };
  }
  const documents = Array.isArray(answer.documents) ? answer.documents.filter((d): d is Json & { content: string } => isObject(d) && typeof d.content === 'string') : [];
  if (!documents.length) return failed(`${target.url}: the answer has neither documents nor a message`);
  const given = documents.map((d) => ({ content: d.content, ...(typeof d.similarity === 'number' ? { similarity: d.similarity } : {}) }));
  note({ url: target.url, documents: given });
  s.log(`The knowledge base gave ${documents.length} document${documents.length === 1 ? '' : 's'} for the model`);
  return { documents: given };
}

/** The model's messages with a knowledge base's documents placed before the customer's latest words. */
export function withDocuments(messages: readonly ChatMessage[], documents: readonly { content: string }[]): ChatMessage[] {
  const note: ChatMessage = { role: 'system', content: `Documents from the knowledge base:\n\n${documents.map((d, i) => `[${i + 1}] ${d.content}`).join('\n\n')}` };
  const at = messages.map((m) => m.role).lastIndexOf('user');
  return at < 0 ? [...messages, note] : [...messages.slice(0, at), note, ...messages.slice(at)];
}
