// The platform's other resources: phone numbers, tools, files, knowledge bases, tests, the
// organisation, tokens, credentials, templates, the voice library and analytics.
import type { Open, Stored } from './models-base.js';

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
