// Chats: the input, the history of a previous chat, and the assistant's answer (its model's,
// tool calls included, when one is configured; otherwise a scripted reply that says so), stored
// like the platform stores chats, streamed as the platform streams when `stream: true`.
import type { Json } from '../../messages/index.js';
import { NO_MODEL_HINT } from '../../model/index.js';
import type { Ctx, Handler, Reply } from '../http/context.js';
import { createIn } from '../resources/crud.js';
import { HttpError, notFound } from '../errors.js';
import type { Rec } from '../store/store.js';
import { check } from '../resources/validate.js';
import { specOf } from '../resources/collections.js';
import { assistantFrom, fillVariables, squadFrom } from '../calls/index.js';
import { randomName, topLevel } from './place.js';
import { asChatMessages, chatTurn, newChatId } from './chat-model.js';

const CHATS = topLevel('chat');

type Message = Record<string, unknown>;

function lastUserText(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role === 'user' && typeof m.content === 'string') return m.content;
  }
  return '';
}

/** The scripted answer when no model is configured: says what it heard, and how to give the assistant its model. */
export function replyTo(text: string): string {
  return text ? `You said: "${text}". (Scripted reply from the local emulator: ${NO_MODEL_HINT})` : `Hello! This is the local emulator. (Scripted reply: ${NO_MODEL_HINT})`;
}

/** The chat's assistant: inline or stored (with overrides), a squad's first member, or the previous chat's or session's. */
function assistantOf(ctx: Ctx, prev: Rec | undefined): Json | undefined {
  const b = ctx.body as Json;
  const session = typeof b.sessionId === 'string' ? ctx.store.get('session', b.sessionId) : undefined;
  for (const ref of [b, prev, session]) {
    if (!ref) continue;
    const found = assistantFrom(ctx.store, ref as Json) ?? squadFrom(ctx.store, ref as Json)?.[0];
    if (found) return found;
  }
  return undefined;
}

/** What a chat request asks for, checked before anything is answered (a streamed answer cannot turn into a 400). */
interface Prepared {
  messages: Message[];
  assistant: Json | undefined;
  id: string;
}

async function prepare(ctx: Ctx): Promise<Prepared> {
  const b = ctx.body;
  check(b, specOf('chat').rules);
  let history: Message[] = [];
  let prev: Rec | undefined;
  if (typeof b.previousChatId === 'string') {
    prev = ctx.store.get('chat', b.previousChatId);
    if (!prev) throw notFound('Chat');
    history = [...((prev.messages as Message[] | undefined) ?? []), ...((prev.output as Message[] | undefined) ?? [])];
  }
  if (typeof b.sessionId === 'string' && !ctx.store.get('session', b.sessionId)) throw notFound('Session');
  const input = typeof b.input === 'string' ? [{ role: 'user', content: b.input }] : (b.input as Message[]);
  // The assistant's prompts read their template variables (`{{name}}`, `{{customer.number}}`) as in a call.
  const assistant = assistantOf(ctx, prev);
  const customer = b.customer !== null && typeof b.customer === 'object' ? (b.customer as Json) : undefined;
  return { messages: [...history, ...input], assistant: assistant && (await fillVariables(assistant, { customer })), id: newChatId() };
}

/** Stores a chat for the request body and returns it with the reply text; `onDelta` gets the model's text as it streams. */
async function answerChat(ctx: Ctx, p: Prepared, onDelta?: (text: string) => void): Promise<{ chat: Rec; reply: string }> {
  const b = ctx.body;
  const { messages, assistant, id } = p;
  const gateway = ctx.env.model;
  if (!assistant || !gateway?.configured(assistant)) {
    const reply = replyTo(lastUserText(messages));
    onDelta?.(reply);
    const chat = createIn(ctx, CHATS, { ...b, messages, output: [{ role: 'assistant', content: reply }], cost: 0, costs: [] }, id);
    ctx.env.calls?.notify('chat.created', chat);
    return { chat, reply };
  }
  const result = await chatTurn({ store: ctx.store, record: ctx.env.record, gateway, chatId: id, ...(onDelta ? { onDelta } : {}) }, assistant, asChatMessages(messages));
  if (result.failure) throw new HttpError(500, `The assistant's model failed (${result.failure.endedReason}): ${result.failure.message}`);
  const chat = createIn(ctx, CHATS, { ...b, messages, output: result.messages, cost: 0, costs: [] }, id);
  ctx.env.calls?.notify('chat.created', chat);
  return { chat, reply: result.text };
}

/**
 * Server-sent events as they happen: the answer's headers go at once, each event as the model
 * streams. Every `data:` line is one JSON event and the stream simply ends (no `[DONE]` line, which
 * the platform's own streaming examples would feed to JSON.parse).
 */
function sse(produce: (send: (event: unknown) => void) => Promise<void>): Reply {
  return {
    status: 200,
    body: undefined,
    contentType: 'text/event-stream',
    changed: true,
    stream: (write) => produce((e) => write(`data: ${JSON.stringify(e)}\n\n`)),
  };
}

/** `POST /chat` (and `/chat/web`): the stored chat with the reply in `output`; with `stream: true`, the reply's chunks as events as they come. */
export const createChat: Handler = async (ctx) => {
  const p = await prepare(ctx);
  if (ctx.body.stream !== true) return { status: 201, body: (await answerChat(ctx, p)).chat, changed: true };
  const session = typeof ctx.body.sessionId === 'string' ? { sessionId: ctx.body.sessionId } : {};
  const path = 'chat.output[0].content';
  return sse(async (send) => {
    try {
      await answerChat(ctx, p, (delta) => send({ id: p.id, ...session, path, delta }));
    } catch (err) {
      // Still an event of the published shape (id, path, delta), with the failure beside it.
      send({ id: p.id, ...session, path, delta: '', error: (err as Error).message });
    }
  });
};

function responseObject(chat: Rec, reply: string, itemId: string): Json {
  return {
    id: `resp_${chat.id.replace(/-/g, '')}`,
    object: 'response',
    created_at: Math.floor(Date.parse(chat.createdAt) / 1000),
    status: 'completed',
    output: [{ id: itemId, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply, annotations: [] }] }],
  };
}

/** `POST /chat/responses` (and the web variant): the reply's events as they come (the published default), or with `stream: false` the reply in the OpenAI Responses shape. */
export const chatResponses: Handler = async (ctx) => {
  const itemId = `msg_${randomName(24)}`;
  const p = await prepare(ctx);
  if (ctx.body.stream === false) {
    const { chat, reply } = await answerChat(ctx, p);
    return { status: 201, changed: true, body: responseObject(chat, reply, itemId) };
  }
  const at = { item_id: itemId, output_index: 0, content_index: 0 };
  return sse(async (send) => {
    let done: { chat: Rec; reply: string };
    try {
      done = await answerChat(ctx, p, (delta) => send({ type: 'response.output_text.delta', ...at, delta }));
    } catch (err) {
      send({ type: 'error', code: 'model-failed', message: (err as Error).message, param: null, sequence_number: 1 });
      return;
    }
    send({ type: 'response.output_text.done', ...at, text: done.reply });
    send({ type: 'response.completed', response: responseObject(done.chat, done.reply, itemId) });
  });
};
