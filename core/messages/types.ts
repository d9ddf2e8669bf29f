// The platform's server messages as types: their names, what every message carries, and the
// conversation messages (transcript turns) several of them hold.
import type { Json } from '../json.js';

/**
 * Every server message type: the 29 members of the platform's `ServerMessage` union, plus
 * `assistant.started` and `campaign.event` (a campaign's own events, in the envelope its guide shows).
 */
export const serverMessageTypes = [
  'assistant-request',
  'conversation-update',
  'end-of-call-report',
  'handoff-destination-request',
  'hang',
  'knowledge-base-request',
  'model-output',
  'phone-call-control',
  'speech-update',
  'status-update',
  'tool-calls',
  'transfer-destination-request',
  'transfer-update',
  'transcript',
  'user-interrupted',
  'language-change-detected',
  'voice-input',
  'assistant.speechStarted',
  'voice-request',
  'call.endpointing.request',
  'chat.created',
  'chat.deleted',
  'session.created',
  'session.updated',
  'session.deleted',
  'call.deleted',
  'call.delete.failed',
  'call.artifact.upload',
  'campaign.predial',
  'assistant.started',
  'campaign.event',
] as const;

/** One server message type name. */
export type ServerMessageType = (typeof serverMessageTypes)[number];

/** The types whose sender waits for an answer (`ServerMessageResponse*` exists for them). */
export const answeredMessageTypes = [
  'assistant-request',
  'tool-calls',
  'transfer-destination-request',
  'handoff-destination-request',
  'knowledge-base-request',
  'voice-request',
  'call.endpointing.request',
  'campaign.predial',
] as const satisfies readonly ServerMessageType[];

/** A type whose sender waits for an answer. */
export type AnsweredMessageType = (typeof answeredMessageTypes)[number];

/**
 * The names an assistant's `serverMessages` list may hold, and the published default when it is
 * unset. `transcript[transcriptType="final"]` subscribes to final transcripts only.
 */
export const DEFAULT_SERVER_MESSAGES: readonly string[] = [
  'conversation-update',
  'end-of-call-report',
  'function-call',
  'hang',
  'speech-update',
  'status-update',
  'tool-calls',
  'transfer-destination-request',
  'handoff-destination-request',
  'user-interrupted',
  'assistant.started',
];

/** The subscription name for final transcripts only. */
export const FINAL_TRANSCRIPTS = 'transcript[transcriptType="final"]';

export type { Json };

/** Call statuses (the `Call.status` enum). */
export type CallStatus = 'scheduled' | 'queued' | 'ringing' | 'in-progress' | 'forwarding' | 'ended' | 'not-found' | 'deletion-failed';

/** One turn of a conversation as the platform records it (`artifact.messages`). */
export type ConversationMessage =
  | { role: 'system'; message: string; time: number; secondsFromStart: number }
  | { role: 'user' | 'bot'; message: string; time: number; endTime: number; secondsFromStart: number; duration?: number; source?: string; assistantName?: string }
  | { role: 'tool_calls'; message: string; toolCalls: ToolCallJson[]; time: number; secondsFromStart: number }
  | { role: 'tool_call_result'; toolCallId: string; name: string; result: string; time: number; secondsFromStart: number };

/** A tool call as the platform's schema gives it (`ToolCall`: the arguments are a JSON string). */
export interface ToolCallJson {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A message in OpenAI's chat format (`OpenAIMessage`). */
export interface OpenAIMessage {
  role: 'assistant' | 'function' | 'user' | 'system' | 'tool';
  content: string | null;
}

/** The URLs of a call's stereo recording and of each side's, next to its mono `recordingUrl`. */
export interface RecordingUrls {
  stereo?: string;
  customer?: string;
  assistant?: string;
}

/** What a message is built from: the call's parties and, per type, the facts it reports. */
export interface MessageContext {
  /** The call (`Call`) the message is about. */
  call?: Json;
  /** The assistant (`CreateAssistantDTO` fields) running the call. */
  assistant?: Json;
  /** The customer (`CreateCustomerDTO` fields). */
  customer?: Json;
  /** The phone number the call uses, when it has one. */
  phoneNumber?: Json;
  /** Epoch milliseconds; the builder uses `Date.now()` when unset. */
  timestamp?: number;
  /** The conversation so far. */
  messages?: readonly ConversationMessage[];
  /** The recording URL for artifacts. */
  recordingUrl?: string;
  /** The other recordings' URLs for artifacts (stereo, each side). */
  recordingUrls?: RecordingUrls;
  /** Type-specific facts (status, transcript text, tool calls...): see `MessageData`. */
  data?: Json;
}

/** A built server message: `{ type, timestamp, ... }` (sent as `{ message }`). */
export interface ServerMessage extends Json {
  type: ServerMessageType;
  timestamp: number;
}
