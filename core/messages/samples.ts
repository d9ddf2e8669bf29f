// Sample contexts so any message type can be built on its own (`voice trigger`, docs, tests):
// a short outbound call with a function tool, its assistant, customer and phone number.
import { buildServerMessage } from './builders.js';
import type { DataOf } from './builders.js';
import type { AnsweredMessageType, ConversationMessage, Json, MessageContext, ServerMessage, ServerMessageType } from './types.js';

const T0 = Date.parse('2026-01-01T12:00:00.000Z');
const ID = '3f1c2a9e-5b7d-4e8a-9c0f-1a2b3c4d5e6f';
const ORG = '0b5e7a1c-2d3f-4a6b-8c9d-0e1f2a3b4c5d';

/** The sample assistant: a model with one function tool. */
export const sampleAssistant: Json = {
  name: 'Sample Assistant',
  firstMessage: 'Hello, this is the sample assistant. How can I help?',
  model: {
    provider: 'openai',
    model: 'gpt-4o-mini',
    messages: [{ role: 'system', content: 'You book appointments.' }],
    tools: [
      {
        type: 'function',
        function: { name: 'bookAppointment', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday', 'tuesday'] } }, required: ['day'] } },
      },
    ],
  },
};

/** The sample customer. */
export const sampleCustomer: Json = { number: '+15555550100', name: 'Sample Customer' };

/** The sample phone number (a platform number). */
export const samplePhoneNumber: Json = { provider: 'vapi', name: 'Sample Number', id: 'b6a0d7c2-1e4f-4c3a-9b8d-7e6f5a4b3c2d', orgId: ORG, number: '+15555550199' };

/** A short sample conversation with one tool call. */
export const sampleMessages: ConversationMessage[] = [
  { role: 'bot', message: 'Hello, this is the sample assistant. How can I help?', time: T0 + 1000, endTime: T0 + 3000, secondsFromStart: 1, duration: 2000 },
  { role: 'user', message: 'I would like an appointment on Monday.', time: T0 + 4000, endTime: T0 + 6000, secondsFromStart: 4, duration: 2000 },
  {
    role: 'tool_calls',
    message: '',
    toolCalls: [{ id: 'call_sample_1', type: 'function', function: { name: 'bookAppointment', arguments: '{"day":"monday"}' } }],
    time: T0 + 6500,
    secondsFromStart: 6.5,
  },
  { role: 'tool_call_result', toolCallId: 'call_sample_1', name: 'bookAppointment', result: 'Booked for Monday at 10am.', time: T0 + 7000, secondsFromStart: 7 },
  { role: 'bot', message: 'Booked for Monday at 10am.', time: T0 + 7500, endTime: T0 + 9500, secondsFromStart: 7.5, duration: 2000 },
];

/** The sample call (ended, with cost), as the platform stores it. */
export const sampleCall: Json = {
  id: ID,
  orgId: ORG,
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0 + 10_000).toISOString(),
  type: 'outboundPhoneCall',
  status: 'in-progress',
  phoneCallProvider: 'vapi',
  phoneCallTransport: 'pstn',
  phoneNumberId: samplePhoneNumber.id,
  customer: sampleCustomer,
  assistant: sampleAssistant,
  startedAt: new Date(T0).toISOString(),
  cost: 0.02,
};

/** Type-specific facts the samples use. */
const SAMPLE_DATA: { [T in ServerMessageType]?: DataOf<T> } = {
  'status-update': { status: 'in-progress' },
  transcript: { role: 'user', transcriptType: 'final', transcript: 'I would like an appointment on Monday.' },
  'speech-update': { status: 'started', role: 'assistant', turn: 1 },
  'tool-calls': {
    toolCalls: [{ call: { id: 'call_sample_1', type: 'function', function: { name: 'bookAppointment', arguments: '{"day":"monday"}' } }, tool: (sampleAssistant.model as { tools: Json[] }).tools[0] }],
  },
  'end-of-call-report': { endedReason: 'customer-ended-call', endedAt: new Date(T0 + 10_000).toISOString(), cost: 0.02 },
  'voice-input': { input: 'Hello from a custom voice input.' },
  'language-change-detected': { language: 'es' },
  'handoff-destination-request': { parameters: { destination: 'billing' } },
  'campaign.event': { campaignId: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', eventType: 'contact.completed', data: { contactId: 'c1', callId: ID, endedReason: 'customer-ended-call' } },
};

/** The sample context of a type: the sample call's parties, its conversation and the type's facts. */
export function sampleContext<T extends ServerMessageType>(type: T, timestamp = T0 + 5000): MessageContext & { data?: DataOf<T> } {
  const context: MessageContext & { data?: DataOf<T> } = {
    call: sampleCall,
    assistant: sampleAssistant,
    customer: sampleCustomer,
    phoneNumber: samplePhoneNumber,
    timestamp,
    messages: sampleMessages,
    recordingUrl: 'http://127.0.0.1:4010/__voice/recording/sample.wav',
  };
  const data = SAMPLE_DATA[type];
  if (data) context.data = data as DataOf<T>;
  return context;
}

/** A complete sample message of any type, built by its builder from the sample context. */
export function sampleServerMessage(type: ServerMessageType, overrides: Json = {}): ServerMessage {
  return buildServerMessage(type, sampleContext(type), overrides);
}

/** A well-formed sample answer (`messageResponse` contents) for each type that expects one. */
export const sampleAnswers: Record<AnsweredMessageType, Json> = {
  'assistant-request': { assistant: { name: 'Inbound Assistant', firstMessage: 'Thanks for calling. How can I help?' } },
  'tool-calls': { results: [{ name: 'bookAppointment', toolCallId: 'call_sample_1', result: 'Booked for Monday at 10am.' }] },
  'transfer-destination-request': { destination: { type: 'number', number: '+15555550123' } },
  'handoff-destination-request': { destination: { type: 'assistant', assistantName: 'Billing' } },
  'knowledge-base-request': { documents: [] },
  'voice-request': { data: '' },
  'call.endpointing.request': { timeoutSeconds: 1 },
  'campaign.predial': { eligible: true },
};
