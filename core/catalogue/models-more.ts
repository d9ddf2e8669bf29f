// Types for the objects of the published operations beyond the specification: reporting,
// observability, monitoring, the v2 campaign and knowledge-base APIs, provider resources and
// billing metrics, plus (re-exported) structured outputs, evals and simulations. As in models.ts,
// each names the fields the reference marks required, the ones users rely on, and the
// discriminants; every object stays open for fields not listed here.
import type { Customer, Open, Stored } from './models.js';

export type * from './models-evals.js';

/** Kinds of reporting insight (the discriminant of `Insight`). */
export type InsightType = 'bar' | 'pie' | 'line' | 'text';

/** Fields of an insight that can be written, keyed by `type`. */
export interface InsightInput extends Open {
  type: InsightType;
  queries: Open[];
  name?: string;
  formulas?: Array<{ formula: string; name?: string }>;
  groupBy?: string;
  timeRange?: Open;
}

/** A stored reporting insight. */
export interface Insight extends Stored, InsightInput {}

/** The answer to running an insight. */
export interface InsightRun extends Open {
  id: string;
  insightId: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
  result?: unknown;
}

/** A reporting board: insights laid out on a page. */
export interface Board extends Stored {
  name: string;
  layout: Open;
  items?: Open[];
}

/** One metric of a scorecard: conditions over a structured output. */
export interface ScorecardMetric extends Open {
  structuredOutputId: string;
  conditions: Open[];
}

/** A stored observability scorecard. */
export interface Scorecard extends Stored {
  metrics: ScorecardMetric[];
  name?: string;
  description?: string;
  assistantIds?: string[];
}

/** An issue a monitor raised over calls. */
export interface MonitoringIssue extends Stored {
  monitorId: string;
  policyId: string;
  totalCalls: number;
  status: 'created' | 'acknowledged' | 'resolved';
  calls?: Array<{ callId: string; failedAt?: string }>;
}

/** A monitoring policy: when a monitor's findings become an issue. */
export interface MonitoringPolicy extends Stored {
  name: string;
  threshold: Open;
  lookbackWindowMinutes: number;
  severity: 'error' | 'warning' | 'info';
  monitorIds?: string[];
}

/** A campaign as the v2 API lists it: counters instead of the calls themselves. */
export interface CampaignV2 extends Stored {
  name: string;
  status: 'scheduled' | 'in-progress' | 'ended' | 'cancelled' | 'archived';
  endedReason?: 'campaign.scheduled.ended-by-user' | 'campaign.in-progress.ended-by-user' | 'campaign.ended.success';
  assistantId?: string;
  squadId?: string;
  phoneNumberId?: string;
  contactCounters?: Open;
  callMetrics?: Open;
}

/** A customer of a campaign with what happened to them. */
export interface CampaignContact extends Customer {
  id: string;
  number: string;
  status: 'contact.pending' | 'contact.dispatched' | 'contact.completed' | 'contact.failed' | 'contact.skipped' | 'contact.predial-failed';
  callId?: string;
}

/** A knowledge base of the v2 API. */
export interface KnowledgeBaseV2 extends Stored {
  name: string;
  description?: string;
}

/** A file attached to a v2 knowledge base, with its indexing status. */
export interface KnowledgeBaseV2File extends Open {
  id: string;
  knowledgeBaseV2Id: string;
  fileId: string;
  status: 'indexing' | 'ready' | 'failed';
  createdAt: string;
  updatedAt: string;
  fileName?: string;
}

/** A v2 knowledge base with its files and the query tool that searches it. */
export interface KnowledgeBaseV2WithFiles extends KnowledgeBaseV2 {
  files: KnowledgeBaseV2File[];
  toolId: string;
}

/** A resource kept at a voice provider (e.g. a pronunciation dictionary). */
export interface ProviderResource extends Stored {
  provider: 'cartesia' | '11labs';
  resourceName: 'pronunciation-dictionary';
  resourceId: string;
  resource: Open;
}

/** The answer to testing a code tool. */
export interface CodeTestResult extends Open {
  success?: boolean;
  result?: unknown;
  error?: string;
  logs?: string;
  executionTimeMs?: number;
}

/** An answer in the OpenAI chat-completions shape. */
export interface ChatCompletion extends Open {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: { role: 'assistant'; content: string }; finish_reason: string }>;
}

/** Billing metrics of an organisation over a range. */
export interface Metrics extends Open {
  orgId: string;
  rangeStart: string;
  rangeEnd: string;
  bill: number;
  billWithinBillingLimit: boolean;
  callActive: number;
  callActiveWithinConcurrencyLimit: boolean;
  callMinutes: number;
  callMinutesAverage: number;
  callCount: number;
}
