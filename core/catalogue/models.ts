// Types for the platform's main objects. Each names the fields users rely on and the
// discriminants of the unions; every object stays open for fields not listed here. The values of
// two discriminants are also exported, so the emulator validates against the same list.

/** Fields any object may carry beyond the ones typed. */
export interface Open {
  [field: string]: unknown;
}

/** Fields every stored object has. */
export interface Stored extends Open {
  id: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
}

/** Providers of the language model behind an assistant. */
export type ModelProvider =
  | 'anthropic'
  | 'anthropic-bedrock'
  | 'anyscale'
  | 'cerebras'
  | 'custom-llm'
  | 'deepinfra'
  | 'deep-seek'
  | 'google'
  | 'groq'
  | 'inflection-ai'
  | 'minimax'
  | 'openai'
  | 'openrouter'
  | 'perplexity-ai'
  | 'together-ai'
  | 'xai'
  | 'vapi';

/** Providers of the synthesised voice. */
export type VoiceProvider =
  | 'azure'
  | 'cartesia'
  | 'custom-voice'
  | 'deepgram'
  | '11labs'
  | 'hume'
  | 'lmnt'
  | 'neuphonic'
  | 'openai'
  | 'playht'
  | 'wellsaid'
  | 'rime-ai'
  | 'smallest-ai'
  | 'tavus'
  | 'vapi'
  | 'sesame'
  | 'inworld'
  | 'minimax'
  | 'xai'
  | 'microsoft';

/** Providers of speech-to-text. */
export type TranscriberProvider =
  'assembly-ai' | 'azure' | 'custom-transcriber' | 'deepgram' | '11labs' | 'gladia' | 'google' | 'speechmatics' | 'talkscriber' | 'openai' | 'cartesia' | 'soniox' | 'xai' | 'vapi';

/** A chat message in a model configuration. */
export interface ModelMessage extends Open {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'function';
  content?: string;
}

/** The model an assistant thinks with, keyed by `provider`. */
export interface Model extends Open {
  provider: ModelProvider;
  model: string;
  messages?: ModelMessage[];
  maxTokens?: number;
  temperature?: number;
  emotionRecognitionEnabled?: boolean;
  toolIds?: string[];
}

/** The voice an assistant speaks with, keyed by `provider`. */
export interface Voice extends Open {
  provider: VoiceProvider;
  voiceId?: string;
}

/** The transcriber an assistant listens with, keyed by `provider`. */
export interface Transcriber extends Open {
  provider: TranscriberProvider;
  model?: string;
  language?: string;
}

/** Recording and artifact settings. */
export interface ArtifactPlan extends Open {
  recordingEnabled?: boolean;
  videoRecordingEnabled?: boolean;
}

/** Fields of an assistant that can be written. */
export interface AssistantInput extends Open {
  name?: string;
  firstMessage?: string;
  model?: Model;
  voice?: Voice;
  transcriber?: Transcriber;
  artifactPlan?: ArtifactPlan;
  metadata?: Record<string, unknown>;
}

/** A stored assistant. */
export interface Assistant extends Stored, AssistantInput {}

/** Per-call changes to an assistant's settings. */
export interface AssistantOverrides extends AssistantInput {
  variableValues?: Record<string, unknown>;
}

/** A member of a squad. */
export interface SquadMember extends Open {
  assistantId?: string;
  assistant?: AssistantInput;
  assistantOverrides?: AssistantOverrides;
}

/** Fields of a squad that can be written. */
export interface SquadInput extends Open {
  name?: string;
  members: SquadMember[];
}

/** A stored squad. */
export interface Squad extends Stored, SquadInput {}

/** Fields of a workflow that can be written. */
export interface WorkflowInput extends Open {
  name: string;
  nodes: Open[];
  edges: Open[];
  globalPrompt?: string;
}

/** A stored workflow. */
export interface Workflow extends Stored, WorkflowInput {}

/** The person on the other end of a call. */
export interface Customer extends Open {
  number?: string;
  name?: string;
  email?: string;
}

/** Kinds of call. */
export type CallType = 'inboundPhoneCall' | 'outboundPhoneCall' | 'webCall' | 'vapi.websocketCall';

/** Fields accepted when creating a call. */
export interface CallInput extends Open {
  name?: string;
  assistantId?: string;
  assistant?: AssistantInput;
  assistantOverrides?: AssistantOverrides;
  squadId?: string;
  squad?: SquadInput;
  workflowId?: string;
  workflow?: WorkflowInput;
  workflowOverrides?: Open;
  phoneNumberId?: string;
  customer?: Customer;
  customerId?: string;
}

/** A stored call. */
export interface Call extends Stored {
  type?: CallType;
  status?: 'scheduled' | 'queued' | 'ringing' | 'in-progress' | 'forwarding' | 'ended' | string;
  endedReason?: string;
  cost?: number;
  startedAt?: string;
  endedAt?: string;
  assistantId?: string;
  assistant?: Assistant | AssistantInput;
  squadId?: string;
  workflowId?: string;
  phoneNumberId?: string;
  customer?: Customer;
  name?: string;
  /** Present on web calls: the room the browser joins. */
  webCallUrl?: string;
  artifactPlan?: ArtifactPlan;
}

/** A stored chat. */
export interface Chat extends Stored {
  assistantId?: string;
  sessionId?: string;
  name?: string;
  input?: string | Open[];
  messages?: Open[];
  output?: Open[];
  cost?: number;
}

/** A stored campaign. */
export interface Campaign extends Stored {
  name: string;
  status: 'scheduled' | 'in-progress' | 'ended' | string;
  assistantId?: string;
  workflowId?: string;
  squadId?: string;
  phoneNumberId?: string;
  customers?: Customer[];
}

/** A stored session. */
export interface Session extends Stored {
  name?: string;
  status?: 'active' | 'completed' | string;
  assistantId?: string;
  squadId?: string;
}

/** Providers a phone number can come from (the values, for validation). */
export const PHONE_NUMBER_PROVIDERS = ['byo-phone-number', 'twilio', 'vonage', 'vapi', 'telnyx'] as const;

/** Providers a phone number can come from. */
export type PhoneNumberProvider = (typeof PHONE_NUMBER_PROVIDERS)[number];

/** Fields of a phone number that can be written. */
export interface PhoneNumberInput extends Open {
  provider: PhoneNumberProvider;
  number?: string;
  name?: string;
  assistantId?: string;
  squadId?: string;
  workflowId?: string;
}

/** A stored phone number, keyed by `provider`. */
export interface PhoneNumber extends Stored, PhoneNumberInput {}

/** Kinds of tool an assistant can call (the values, for validation). */
export const TOOL_TYPES = [
  'apiRequest',
  'code',
  'dtmf',
  'endCall',
  'function',
  'transferCall',
  'handoff',
  'bash',
  'computer',
  'textEditor',
  'query',
  'google.calendar.event.create',
  'google.sheets.row.append',
  'google.calendar.availability.check',
  'slack.message.send',
  'sms',
  'mcp',
  'gohighlevel.calendar.availability.check',
  'gohighlevel.calendar.event.create',
  'gohighlevel.contact.create',
  'gohighlevel.contact.get',
  'sipRequest',
  'voicemail',
] as const;

/** Kinds of tool an assistant can call. */
export type ToolType = (typeof TOOL_TYPES)[number];

/** Fields of a tool that can be written. */
export interface ToolInput extends Open {
  type: ToolType;
  function?: { name: string; description?: string; parameters?: Open } & Open;
}

/** A stored tool, keyed by `type`. */
export interface Tool extends Stored, ToolInput {}

/** An uploaded file. */
export interface File extends Stored {
  name?: string;
  originalName?: string;
  bytes?: number;
  mimetype?: string;
  purpose?: string;
  status?: 'processing' | 'done' | 'failed' | string;
  url?: string;
}

/** A stored knowledge base. */
export interface KnowledgeBase extends Stored {
  name?: string;
  provider?: string;
  fileIds?: string[];
}

/** A stored test suite. */
export interface TestSuite extends Stored {
  name?: string;
  phoneNumberId?: string;
}

/** A test in a test suite. */
export interface Test extends Stored {
  testSuiteId: string;
  type: 'voice' | 'chat' | string;
  name?: string;
  script?: string;
}

/** A run of a test suite. */
export interface TestRun extends Stored {
  testSuiteId: string;
  status: 'queued' | 'in-progress' | 'completed' | 'failed' | string;
  name?: string;
  testResults?: Open[];
}

/** An organisation. */
export interface Org extends Open {
  id: string;
  createdAt: string;
  updatedAt: string;
  name?: string;
  hipaaEnabled?: boolean;
  concurrencyLimit?: number;
}

/** A member of an organisation. */
export interface User extends Open {
  id: string;
  email: string;
  createdAt: string;
  updatedAt: string;
  fullName?: string;
  role?: string;
}

/** An API token. */
export interface Token extends Stored {
  tag?: 'private' | 'public';
  name?: string;
  value?: string;
}

/** A provider credential. */
export interface Credential extends Stored {
  provider: string;
  name?: string;
}

/** A template. */
export interface Template extends Stored {
  type: 'tool' | string;
  name?: string;
  provider?: string;
  visibility?: 'public' | 'private';
}

/** A log line of a call. */
export interface Log extends Open {
  callId?: string;
  orgId: string;
  time: string;
  type?: string;
  level?: string;
  log?: string;
}

/** A voice in the voice library. */
export interface LibraryVoice extends Open {
  provider: string;
  providerId: string;
  name?: string;
  gender?: string;
  accent?: string;
  language?: string;
}

/** An aggregation over a column. */
export interface AnalyticsOperation {
  operation: 'sum' | 'avg' | 'count' | 'min' | 'max' | 'history';
  column: string;
  alias?: string;
}

/** The window of an analytics query. */
export interface TimeRange {
  step?: 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
  start?: string;
  end?: string;
  timezone?: string;
}

/** One named analytics query. */
export interface AnalyticsQuery {
  table: 'call' | 'subscription';
  name: string;
  operations: AnalyticsOperation[];
  groupBy?: string[];
  timeRange?: TimeRange;
}

/** The body of `POST /analytics`. */
export interface AnalyticsRequest {
  queries: AnalyticsQuery[];
}

/** The answer to one analytics query. */
export interface AnalyticsResult {
  name: string;
  timeRange: TimeRange;
  result: Array<Record<string, unknown>>;
}

/** Paging facts of a paginated list. */
export interface PageMeta {
  itemsPerPage: number;
  totalItems: number;
  currentPage: number;
  totalPages?: number;
  hasNextPage?: boolean;
  sortOrder?: 'ASC' | 'DESC';
}

/** A page of a paginated list. */
export interface Paginated<T> {
  results: T[];
  metadata: PageMeta;
}

/** Patch body: every field optional. */
export type Update<T> = Partial<T> & Open;
