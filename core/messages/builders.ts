// One builder per server message type. The emulator's calls, `voice trigger` and the tests all
// build messages here, so each shape is written once. Field names and required fields follow the
// platform's published `ServerMessage*` schemas (and `ClientMessageAssistantStarted`).
import { artifactOf, openAIFormatted } from './conversation.js';
import { frozenCopy, isDeepFrozen } from './frozen.js';
import type { CampaignEventType } from './campaign.js';
import type { CallStatus, ConversationMessage, Json, MessageContext, ServerMessage, ServerMessageType, ToolCallJson } from './types.js';
import { VoiceError } from '../errors.js';

/** A tool call to put in `tool-calls`: the call and, when known, the tool it invokes. */
export interface ToolCallData {
  call: ToolCallJson;
  /** The tool object (`model.tools[i]` or a stored tool) the call invokes. */
  tool?: Json;
}

/** The type-specific facts each builder reads from `context.data` (all optional: defaults fill in). */
export interface MessageData {
  'status-update': { status?: CallStatus; endedReason?: string; destination?: Json };
  transcript: { role?: 'assistant' | 'user'; transcriptType?: 'partial' | 'final'; transcript?: string };
  'speech-update': { status?: 'started' | 'stopped'; role?: 'assistant' | 'user'; turn?: number };
  'tool-calls': { toolCalls?: ToolCallData[] };
  'end-of-call-report': { endedReason?: string; summary?: string; cost?: number; costs?: Json[]; startedAt?: string; endedAt?: string };
  'phone-call-control': { request?: 'forward' | 'hang-up'; destination?: Json };
  'transfer-update': { destination?: Json; toAssistant?: Json; fromAssistant?: Json };
  'handoff-destination-request': { parameters?: Json };
  'model-output': { output?: Json; turnId?: string };
  'user-interrupted': { turnId?: string };
  'language-change-detected': { language?: string };
  'voice-input': { input?: string };
  'assistant.speechStarted': { text?: string; turn?: number; source?: 'model' | 'force-say' | 'custom-voice' };
  'voice-request': { text?: string; sampleRate?: number };
  /** The conversation to send when it is not the call's own (the latest transcript added). */
  'call.endpointing.request': { messages?: readonly ConversationMessage[] };
  'chat.created': { chat?: Json };
  'chat.deleted': { chat?: Json };
  'session.created': { session?: Json };
  'session.updated': { session?: Json };
  'session.deleted': { session?: Json };
  'call.artifact.upload': { artifacts?: { type: string; success: boolean }[] };
  'campaign.predial': { campaignId?: string; contact?: Json };
  'assistant.started': { newAssistant?: Json };
  'campaign.event': { campaignId?: string; eventType?: CampaignEventType; data?: Record<string, string> };
}

/** The `data` a type reads (an empty object for types that carry nothing of their own). */
export type DataOf<T extends ServerMessageType> = T extends keyof MessageData ? MessageData[T] : Record<string, never>;

type Builder = (ctx: MessageContext, data: Json, at: number) => Json;

const messages = (ctx: MessageContext): readonly ConversationMessage[] => ctx.messages ?? [];
const conversation = (ctx: MessageContext): Json => ({ messages: messages(ctx), messagesOpenAIFormatted: openAIFormatted(messages(ctx)) });
const lastBot = (ctx: MessageContext): string => {
  const said = messages(ctx).filter((m) => m.role === 'bot');
  return said.length ? (said[said.length - 1] as { message: string }).message : '';
};
const stamp = (ctx: MessageContext, at: number): Json => ({
  id: String(ctx.call?.id ?? 'sample'),
  orgId: String(ctx.call?.orgId ?? 'sample'),
  createdAt: new Date(at).toISOString(),
  updatedAt: new Date(at).toISOString(),
});

function toolWithCall(t: ToolCallData): Json {
  const tool = t.tool ?? {};
  const fn = (tool.function as Json | undefined) ?? { name: t.call.function.name };
  return {
    type: 'function',
    function: fn,
    ...(tool.server ? { server: tool.server } : {}),
    ...(tool.messages ? { messages: tool.messages } : {}),
    ...(tool.async !== undefined ? { async: tool.async } : {}),
    toolCall: t.call,
  };
}

const BUILDERS: Record<ServerMessageType, Builder> = {
  'assistant-request': () => ({}),
  'conversation-update': (ctx) => conversation(ctx),
  'end-of-call-report': (ctx, d, at) => {
    const call = ctx.call ?? {};
    const ended = (d.endedReason as string | undefined) ?? (call.endedReason as string | undefined) ?? 'customer-ended-call';
    const cost = (d.cost as number | undefined) ?? (call.cost as number | undefined);
    const costs = (d.costs as Json[] | undefined) ?? (call.costs as Json[] | undefined);
    const startedAt = (d.startedAt as string | undefined) ?? (call.startedAt as string | undefined);
    const endedAt = (d.endedAt as string | undefined) ?? (call.endedAt as string | undefined) ?? new Date(at).toISOString();
    const summary = (d.summary as string | undefined) ?? ((call.analysis as Json | undefined)?.summary as string | undefined) ?? summarise(messages(ctx));
    // The call's latencies and extracted structured outputs travel with its artifact.
    const stored = (call.artifact as Json | undefined) ?? {};
    const kept: Json = {};
    for (const key of ['performanceMetrics', 'structuredOutputs', 'structuredOutputsLastUpdatedAt']) if (stored[key] !== undefined) kept[key] = stored[key];
    return {
      endedReason: ended,
      ...(cost !== undefined ? { cost } : {}),
      ...(costs ? { costs } : {}),
      artifact: { ...artifactOf(messages(ctx), ctx.recordingUrl, ctx.recordingUrls), ...kept },
      analysis: { summary },
      ...(startedAt ? { startedAt } : {}),
      endedAt,
    };
  },
  'handoff-destination-request': (_ctx, d) => ({ parameters: (d.parameters as Json | undefined) ?? {} }),
  hang: () => ({}),
  'knowledge-base-request': (ctx) => conversation(ctx),
  'model-output': (ctx, d) => ({ ...(d.turnId ? { turnId: d.turnId } : {}), output: (d.output as Json | undefined) ?? { content: lastBot(ctx) } }),
  'phone-call-control': (_ctx, d) => ({ request: d.request ?? 'hang-up', ...(d.destination ? { destination: d.destination } : {}) }),
  'speech-update': (_ctx, d) => ({ status: d.status ?? 'started', role: d.role ?? 'assistant', ...(d.turn !== undefined ? { turn: d.turn } : {}) }),
  'status-update': (ctx, d) => {
    const status = (d.status as string | undefined) ?? (ctx.call?.status as string | undefined) ?? 'in-progress';
    const endedReason = (d.endedReason as string | undefined) ?? (status === 'ended' ? (ctx.call?.endedReason as string | undefined) : undefined);
    return { status, ...(endedReason ? { endedReason } : {}), ...(d.destination ? { destination: d.destination } : {}) };
  },
  'tool-calls': (_ctx, d) => {
    const calls = (d.toolCalls as ToolCallData[] | undefined) ?? [];
    return { toolWithToolCallList: calls.map(toolWithCall), toolCallList: calls.map((c) => c.call) };
  },
  'transfer-destination-request': () => ({}),
  'transfer-update': (ctx, d) => ({
    destination: (d.destination as Json | undefined) ?? { type: 'assistant', assistantName: String(ctx.assistant?.name ?? 'assistant') },
    ...(d.toAssistant ? { toAssistant: asCreated(d.toAssistant as Json) } : {}),
    ...(d.fromAssistant ? { fromAssistant: asCreated(d.fromAssistant as Json) } : {}),
  }),
  transcript: (ctx, d) => ({
    role: d.role ?? 'assistant',
    transcriptType: d.transcriptType ?? 'final',
    transcript: (d.transcript as string | undefined) ?? lastBot(ctx),
  }),
  'user-interrupted': (_ctx, d) => (d.turnId ? { turnId: d.turnId } : {}),
  'language-change-detected': (_ctx, d) => ({ language: d.language ?? 'en' }),
  'voice-input': (_ctx, d) => ({ input: d.input ?? '' }),
  'assistant.speechStarted': (ctx, d) => ({ text: (d.text as string | undefined) ?? lastBot(ctx), ...(d.turn !== undefined ? { turn: d.turn } : {}), source: d.source ?? 'model' }),
  'voice-request': (ctx, d) => ({ text: (d.text as string | undefined) ?? lastBot(ctx), sampleRate: d.sampleRate ?? 24000 }),
  'call.endpointing.request': (ctx, d) => conversation(d.messages ? { ...ctx, messages: d.messages as unknown as ConversationMessage[] } : ctx),
  'chat.created': (ctx, d, at) => ({ chat: (d.chat as Json | undefined) ?? stamp(ctx, at) }),
  'chat.deleted': (ctx, d, at) => ({ chat: (d.chat as Json | undefined) ?? stamp(ctx, at) }),
  'session.created': (ctx, d, at) => ({ session: (d.session as Json | undefined) ?? stamp(ctx, at) }),
  'session.updated': (ctx, d, at) => ({ session: (d.session as Json | undefined) ?? stamp(ctx, at) }),
  'session.deleted': (ctx, d, at) => ({ session: (d.session as Json | undefined) ?? stamp(ctx, at) }),
  'call.deleted': () => ({}),
  'call.delete.failed': () => ({}),
  'call.artifact.upload': (_ctx, d) => ({ artifacts: d.artifacts ?? [{ type: 'end-of-call-report', success: true }] }),
  'campaign.predial': (ctx, d, at) => {
    const campaignId = (d.campaignId as string | undefined) ?? (ctx.call?.campaignId as string | undefined) ?? 'campaign';
    const contact = (d.contact as Json | undefined) ?? {
      id: 'contact',
      campaignId,
      orgId: String(ctx.call?.orgId ?? 'org'),
      number: String(ctx.customer?.number ?? '+15555550100'),
      createdAt: new Date(at).toISOString(),
    };
    return { campaignId, contact };
  },
  'assistant.started': (ctx, d) => ({ newAssistant: asCreated((d.newAssistant as Json | undefined) ?? ctx.assistant ?? {}) }),
  'campaign.event': (ctx, d) => ({
    campaignId: (d.campaignId as string | undefined) ?? (ctx.call?.campaignId as string | undefined) ?? 'campaign',
    eventType: d.eventType ?? 'campaign.started',
    data: (d.data as Json | undefined) ?? {},
  }),
};

/** A one-line summary of a conversation, as `analysis.summary` (the emulator runs no model). */
export function summarise(conv: readonly ConversationMessage[]): string {
  const turns = conv.filter((m) => m.role === 'user' || m.role === 'bot').length;
  const tools = conv.filter((m) => m.role === 'tool_call_result').map((m) => (m as { name: string }).name);
  const used = tools.length ? `, calling ${[...new Set(tools)].join(', ')}` : '';
  return `Simulated call: ${turns} spoken turn${turns === 1 ? '' : 's'}${used}.`;
}

// Messages carry the assistant, customer and phone number as their create shapes (`CreateAssistantDTO`,
// `CreateCustomerDTO`, `Create*PhoneNumberDTO`): fields the platform owns are left out.
const OWNED = ['id', 'orgId', 'createdAt', 'updatedAt', 'status', 'isServerUrlSecretSet', 'serverUrl', 'serverUrlSecret'];

const created = new WeakMap<Json, Json>();

function asCreated(obj: Json): Json {
  // A deep-frozen party (a load run's assistant) is the same in every message: its create shape is made once.
  const made = created.get(obj);
  if (made) return made;
  if (!isDeepFrozen(obj)) return createShape(obj);
  const out = frozenCopy(createShape(obj));
  created.set(obj, out);
  return out;
}

function createShape(obj: Json): Json {
  const out: Json = {};
  for (const key in obj) if (!OWNED.includes(key)) out[key] = obj[key];
  // A platform number's digits are assigned, not given: its create shape has no `number`.
  if (out.provider === 'vapi') delete out.number;
  return out;
}

/** True for a known server message type name. */
export function isServerMessageType(type: string): type is ServerMessageType {
  return Object.hasOwn(BUILDERS, type);
}

/**
 * Builds one server message: `type`, `timestamp`, the call's parties from `context` (each only
 * when given), the type's own fields from `context.data`, then `overrides` merged on top.
 */
export function buildServerMessage<T extends ServerMessageType>(type: T, context: MessageContext & { data?: DataOf<T> } = {}, overrides: Json = {}): ServerMessage {
  const build = BUILDERS[type];
  if (!build) throw new VoiceError(`Unknown server message type "${String(type)}"`);
  const at = context.timestamp ?? Date.now();
  const own = build(context, (context.data ?? {}) as Json, at);
  const message: Json = { type, timestamp: at };
  // A web call's room URL is part of the create answer, not of the published `Call` messages carry.
  if (context.call) {
    if ('webCallUrl' in context.call) {
      const { webCallUrl: _room, ...call } = context.call;
      message.call = call;
    } else message.call = { ...context.call };
  }
  if (context.assistant) message.assistant = asCreated(context.assistant);
  if (context.customer) message.customer = asCreated(context.customer);
  if (context.phoneNumber) message.phoneNumber = asCreated(context.phoneNumber);
  return Object.assign(message, own, overrides) as ServerMessage;
}
