// The platform's client messages: what a web call's browser receives in the call. They are the
// server messages of the types the assistant's `clientMessages` lists (the published default
// when unset), carried as they are built, so a client message is never built twice.
import type { Json } from './types.js';

/** The `clientMessages` an assistant gets when it sets none (the platform's published default). */
export const DEFAULT_CLIENT_MESSAGES: readonly string[] = [
  'conversation-update',
  'function-call',
  'hang',
  'model-output',
  'speech-update',
  'status-update',
  'transfer-update',
  'transcript',
  'tool-calls',
  'user-interrupted',
  'voice-input',
  'workflow.node.started',
  'assistant.started',
];

/** The message as the browser gets it, or undefined when the assistant's `clientMessages` leave it out. */
export function clientMessageOf(message: Json & { type: string }, clientMessages?: readonly string[] | null): Json | undefined {
  const list = Array.isArray(clientMessages) ? clientMessages : DEFAULT_CLIENT_MESSAGES;
  return list.includes(message.type) ? message : undefined;
}
