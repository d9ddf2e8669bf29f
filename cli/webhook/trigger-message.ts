// The message `voice trigger` sends: built by core/messages from the sample context (or read from
// a file), filled from a real or emulated call with --call, then changed by --set paths.
import { buildServerMessage, sampleContext } from '#core/messages/index';
import type { Client } from '#core/client/node';
import type { ConversationMessage, Json, MessageContext, ServerMessageType } from '#core/messages/index';
import { isObject } from '#core/json';
import { parseSetValue, readJsonFile, setPath, splitAssignment } from '../body.js';
import { usageError } from '../errors.js';
import { checkType } from './types.js';

const obj = (v: unknown): Json | undefined => (isObject(v) ? v : undefined);

/** The parties of a call as the platform puts them in messages, read through the API. */
export async function callContext(client: Client, id: string): Promise<MessageContext> {
  const call = (await client.call.get(id)) as unknown as Json;
  const ctx: MessageContext = { call };
  const assistantId = typeof call.assistantId === 'string' ? call.assistantId : undefined;
  const assistant = obj(call.assistant) ?? (assistantId ? ((await client.assistant.get(assistantId)) as unknown as Json) : undefined);
  if (assistant) ctx.assistant = assistant;
  const customer = obj(call.customer);
  if (customer) ctx.customer = customer;
  const numberId = typeof call.phoneNumberId === 'string' ? call.phoneNumberId : undefined;
  const phoneNumber = obj(call.phoneNumber) ?? (numberId ? ((await client.phoneNumber.get(numberId)) as unknown as Json) : undefined);
  if (phoneNumber) ctx.phoneNumber = phoneNumber;
  const turns = Array.isArray(call.messages) ? call.messages : obj(call.artifact)?.messages;
  if (Array.isArray(turns) && turns.length) ctx.messages = turns as ConversationMessage[];
  return ctx;
}

/** Reads a message file: `{ "message": {...} }` or the bare message. */
async function messageFromFile(path: string): Promise<Json> {
  const data = await readJsonFile(path);
  const message = obj(obj(data)?.message) ?? obj(data);
  if (!message) throw usageError(`${path === '-' ? 'stdin' : path} must hold a JSON object: { "message": { "type": ... } } or the message itself`);
  return structuredClone(message);
}

/** What to build the message from. */
export interface MessageInput {
  type?: string;
  file?: string;
  sets: readonly string[];
  /** The context of a real call (--call), merged over the sample one. */
  call?: MessageContext;
}

/** Builds the message to send, or throws a usage error naming what is wrong. */
export async function triggerMessage(input: MessageInput, now = Date.now()): Promise<Json & { type: ServerMessageType }> {
  let message: Json;
  if (input.file !== undefined) {
    message = await messageFromFile(input.file);
    const inFile = typeof message.type === 'string' ? message.type : undefined;
    if (input.type && inFile && input.type !== inFile) throw usageError(`The file holds a "${inFile}" message, not "${input.type}"; drop the type or the file.`);
    const type = input.type ?? inFile;
    if (!type) throw usageError(`${input.file} has no "type": give one, e.g. voice trigger tool-calls -f ${input.file}`);
    message.type = checkType(type);
    if (input.call) for (const k of ['call', 'assistant', 'customer', 'phoneNumber'] as const) if (input.call[k]) message[k] = input.call[k];
  } else {
    if (!input.type) throw usageError('Name a message type, e.g. voice trigger tool-calls --forward-to localhost:3000/webhook', 'voice trigger --list shows every type.');
    const type = checkType(input.type);
    const context: MessageContext = { ...sampleContext(type, now), ...input.call, timestamp: now };
    message = buildServerMessage(type, context);
  }
  for (const raw of input.sets) {
    const [path, value] = splitAssignment(raw, '--set');
    if (path === 'type') throw usageError('--set cannot change the type; name the type instead.');
    setPath(message, path, parseSetValue(value));
  }
  return message as Json & { type: ServerMessageType };
}
