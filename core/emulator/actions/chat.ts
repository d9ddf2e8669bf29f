// Chats: the input, the history of a previous chat, and a reply from the emulator's
// stand-in assistant (no model is called), stored like the platform stores chats.
import type { Ctx, Handler } from '../context.js';
import { createIn } from '../crud.js';
import { notFound } from '../errors.js';
import type { Rec } from '../store.js';
import { check } from '../validate.js';
import { specOf } from '../collections.js';
import { randomName, topLevel } from './place.js';

const CHATS = topLevel('chat');

type Message = Record<string, unknown>;

function lastUserText(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role === 'user' && typeof m.content === 'string') return m.content;
  }
  return '';
}

/** The stand-in assistant's answer: says what it heard, so tests and demos can see the round trip. */
export function replyTo(text: string): string {
  return text ? `You said: "${text}". (Reply from the local emulator; no model was called.)` : 'Hello! This is the local emulator; no model was called.';
}

/** Stores a chat for the request body and returns it with the reply text. */
function converse(ctx: Ctx): { chat: Rec; reply: string } {
  const b = ctx.body;
  check(b, specOf('chat').rules);
  let history: Message[] = [];
  if (typeof b.previousChatId === 'string') {
    const prev = ctx.store.get('chat', b.previousChatId);
    if (!prev) throw notFound('Chat');
    history = [...((prev.messages as Message[] | undefined) ?? []), ...((prev.output as Message[] | undefined) ?? [])];
  }
  if (typeof b.sessionId === 'string' && !ctx.store.get('session', b.sessionId)) throw notFound('Session');
  const input = typeof b.input === 'string' ? [{ role: 'user', content: b.input }] : (b.input as Message[]);
  const messages = [...history, ...input];
  const reply = replyTo(lastUserText(messages));
  const chat = createIn(ctx, CHATS, { ...b, messages, output: [{ role: 'assistant', content: reply }], cost: 0, costs: [] });
  ctx.env.calls?.notify('chat.created', chat);
  return { chat, reply };
}

/** `POST /chat` (and `/chat/web`): the stored chat with the reply in `output`. */
export const createChat: Handler = (ctx) => ({ status: 201, body: converse(ctx).chat, changed: true });

/** `POST /chat/responses` (and the web variant): the reply in the OpenAI Responses shape. */
export const chatResponses: Handler = (ctx) => {
  const { chat, reply } = converse(ctx);
  return {
    status: 201,
    changed: true,
    body: {
      id: `resp_${chat.id.replace(/-/g, '')}`,
      object: 'response',
      created_at: Math.floor(Date.parse(chat.createdAt) / 1000),
      status: 'completed',
      output: [{ id: `msg_${randomName(24)}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply, annotations: [] }] }],
    },
  };
};
