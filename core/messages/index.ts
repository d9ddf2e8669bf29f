// The platform's server messages: every type's builder, samples, the subscription filter and
// which types wait for an answer. Shared by the emulator's calls, `voice trigger` and `voice listen`.
import { DEFAULT_SERVER_MESSAGES, FINAL_TRANSCRIPTS, answeredMessageTypes } from './types.js';
import type { AnsweredMessageType, ServerMessage } from './types.js';

export * from './types.js';
export { ABOUT } from './about.js';
export { CAMPAIGN_EVENT_DATA, campaignEventProblems, campaignEventTypes, isCampaignEventType } from './campaign.js';
export type { CampaignEventType } from './campaign.js';
export { buildServerMessage, isServerMessageType, summarise } from './builders.js';
export type { DataOf, MessageData, ToolCallData } from './builders.js';
export { deepFreeze, frozenCopy, isDeepFrozen } from './frozen.js';
export { clientMessageOf, DEFAULT_CLIENT_MESSAGES } from './client.js';
export { artifactOf, openAIFormatted, transcriptText } from './conversation.js';
export { sampleAnswers, sampleAssistant, sampleCall, sampleContext, sampleCustomer, sampleMessages, samplePhoneNumber, sampleServerMessage } from './samples.js';

/** True when the sender of this type waits for the server's answer. */
export function expectsAnswer(type: string): type is AnsweredMessageType {
  return (answeredMessageTypes as readonly string[]).includes(type);
}

/**
 * True when an assistant's `serverMessages` list (the published default when unset) asks for
 * this message. `assistant-request` is always sent: it comes before any assistant exists.
 */
export function isSubscribed(message: Pick<ServerMessage, 'type'> & { transcriptType?: unknown }, serverMessages?: readonly string[] | null): boolean {
  if (message.type === 'assistant-request') return true;
  const list = serverMessages ?? DEFAULT_SERVER_MESSAGES;
  if (list.includes(message.type)) return true;
  return message.type === 'transcript' && message.transcriptType === 'final' && list.includes(FINAL_TRANSCRIPTS);
}
