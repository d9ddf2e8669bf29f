// The chat-completions request the platform sends for an assistant's turn: where it goes, its
// headers (custom headers, the custom-llm credential or the configured key), and its body.
import type { Json } from '../messages/index.js';
import { VERSION } from '../version.js';
import { toolsForModel } from './tools.js';
import type { ChatMessage, ModelConfig, StepInput } from './types.js';
import { isObject } from '../json.js';

/** A request ready to send (its headers may carry keys: never write them down). */
export interface ModelRequest {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: Json;
  timeoutSeconds: number;
  /** An OAuth2 client-credentials plan whose token becomes the Authorization header before sending. */
  oauth2?: Json;
}

/** The platform's defaults for a model without them. */
export const DEFAULT_MAX_TOKENS = 250;
export const DEFAULT_TEMPERATURE = 0.5;
export const DEFAULT_TIMEOUT_SECONDS = 20;

/** The assistant's `model`, or the platform's default provider when it has none. */
export function modelOf(assistant: Json | undefined): Json {
  return isObject(assistant?.model) ? assistant.model : { provider: 'openai' };
}

/** The model name sent for a non-custom-llm assistant: config.model (a name, or a "provider/model" map) or the assistant's own. */
export function modelNameFor(config: ModelConfig, model: Json): string {
  const own = typeof model.model === 'string' ? model.model : '';
  if (typeof config.model === 'string' && config.model) return config.model;
  if (isObject(config.model)) {
    const mapped = config.model[`${String(model.provider)}/${own}`];
    if (typeof mapped === 'string' && mapped) return mapped;
  }
  return own;
}

/** The `user-agent` of every model request. */
export const MODEL_USER_AGENT = `voice-emulator/${VERSION}`;

/** The chat-completions URL of a base URL; a base that already ends in `/chat/completions` (as the platform's guides write it) is used as it is. */
export function chatCompletionsUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

/** Where a request finds stored credentials: one by id, and all of the org's. */
export interface Credentials {
  get(id: string): Json | undefined;
  all(): readonly Json[];
}

function systemMessages(model: Json): ChatMessage[] {
  const list = Array.isArray(model.messages) ? model.messages.filter(isObject) : [];
  return list.map((m) => ({ ...m }) as unknown as ChatMessage);
}

/** How a custom-llm request is authorised: a Bearer key, or an OAuth2 client-credentials plan to get a token with. */
type CustomLlmAuth = { bearer?: string; oauth2?: Json } | { error: string };

function authOf(record: Json | undefined): { bearer?: string; oauth2?: Json } {
  // The credential's OAuth2 plan, when it has one, is how the platform authenticates; else its apiKey as a Bearer.
  if (isObject(record?.authenticationPlan) && record.authenticationPlan.type === 'oauth2') return { oauth2: record.authenticationPlan };
  return typeof record?.apiKey === 'string' && record.apiKey ? { bearer: record.apiKey } : {};
}

/**
 * The custom-llm authorisation: the credential `credentialId` names, else a transient one on the
 * assistant, else the org's stored custom-llm credential (all of the org's credentials serve a
 * call unless the assistant's `credentialIds` names the ones that may).
 */
function customLlmAuth(assistant: Json, model: Json, credentials: Credentials): CustomLlmAuth {
  if (typeof model.credentialId === 'string' && model.credentialId) {
    const record = credentials.get(model.credentialId);
    if (!record) return { error: `the custom-llm credential ${model.credentialId} (model.credentialId) does not exist` };
    return authOf(record);
  }
  const transient = Array.isArray(assistant.credentials) ? assistant.credentials.filter(isObject).find((c) => c.provider === 'custom-llm') : undefined;
  if (transient) return authOf(transient);
  const allowed = Array.isArray(assistant.credentialIds) ? new Set(assistant.credentialIds) : undefined;
  return authOf(credentials.all().find((c) => c.provider === 'custom-llm' && (!allowed || allowed.has(c.id))));
}

function customHeaders(model: Json): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(model.headers)) return out;
  // The reference lets model.headers override the default headers except Authorization.
  for (const [k, v] of Object.entries(model.headers)) if (typeof v === 'string' && k.toLowerCase() !== 'authorization') out[k.toLowerCase()] = v;
  return out;
}

/** The metadata fields custom-llm puts on the body for `metadataSendMode`. */
function metadataFields(assistant: Json, model: Json, context: StepInput['context']): { spread: Json; fields: Json } {
  const mode = model.metadataSendMode ?? 'variable';
  if (mode === 'off') return { spread: {}, fields: {} };
  const metadata = isObject(assistant.metadata) ? assistant.metadata : {};
  const fields: Json = {};
  if (context?.call) fields.call = context.call;
  if (context?.phoneNumber) fields.phoneNumber = context.phoneNumber;
  if (context?.customer) fields.customer = context.customer;
  if (mode === 'destructured') return { spread: metadata, fields };
  return { spread: {}, fields: { metadata, ...fields } };
}

/** Builds the request for one model step, or says why it cannot be built. */
export function buildRequest(
  config: ModelConfig,
  input: Pick<StepInput, 'assistant' | 'tools' | 'messages' | 'members' | 'context'>,
  credentials: Credentials,
  options: { replay?: boolean } = {},
): ModelRequest | { error: string; provider: string } {
  const assistant = input.assistant ?? {};
  const model = modelOf(assistant);
  const provider = typeof model.provider === 'string' ? model.provider : 'openai';
  const custom = provider === 'custom-llm';
  const base = custom ? model.url : config.url;
  // A replayed request is never sent: it needs neither an endpoint nor a credential.
  if ((typeof base !== 'string' || !base) && !options.replay) {
    return { provider, error: custom ? 'the custom-llm assistant has no model.url' : 'no model endpoint is configured (voice dev --llm URL)' };
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream', 'user-agent': MODEL_USER_AGENT };
  let name: string;
  let meta = { spread: {} as Json, fields: {} as Json };
  let oauth2: Json | undefined;
  if (custom) {
    Object.assign(headers, customHeaders(model));
    const auth = options.replay ? {} : customLlmAuth(assistant, model, credentials);
    if ('error' in auth) return { provider, error: auth.error };
    if (auth.bearer) headers.authorization = `Bearer ${auth.bearer}`;
    if (auth.oauth2) oauth2 = auth.oauth2;
    name = typeof model.model === 'string' ? model.model : '';
    meta = metadataFields(assistant, model, input.context);
  } else {
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
    name = modelNameFor(config, model);
    if (!name && !options.replay) return { provider, error: 'no model name: the assistant has no model.model and none is configured (voice dev --llm-model NAME)' };
  }
  const tools = toolsForModel(input.tools ?? [], input.members);
  const body: Json = {
    ...meta.spread,
    model: name,
    messages: [...systemMessages(model), ...input.messages],
    ...(tools.length ? { tools } : {}),
    temperature: typeof model.temperature === 'number' ? model.temperature : DEFAULT_TEMPERATURE,
    max_tokens: typeof model.maxTokens === 'number' ? model.maxTokens : DEFAULT_MAX_TOKENS,
    stream: true,
    ...meta.fields,
  };
  const timeoutSeconds = typeof model.timeoutSeconds === 'number' && model.timeoutSeconds > 0 ? model.timeoutSeconds : DEFAULT_TIMEOUT_SECONDS;
  return { provider, url: typeof base === 'string' && base ? chatCompletionsUrl(base) : '(cassette)', headers, body, timeoutSeconds, ...(oauth2 ? { oauth2 } : {}) };
}
