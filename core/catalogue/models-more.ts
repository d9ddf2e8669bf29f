// Types for the objects of the published operations beyond the specification: structured
// outputs, evals and simulations, reporting, observability, monitoring, the v2 campaign and
// knowledge-base APIs, provider resources and billing metrics. As in models.ts, each names the
// fields the reference marks required, the ones users rely on, and the discriminants; every
// object stays open for fields not listed here.
import type { AssistantInput, Customer, Model, Open, Stored } from './models.js';

/** Kinds of structured output: extracted by a model, or matched by a regular expression. */
export type StructuredOutputType = 'ai' | 'regex';

/** Fields of a structured output that can be written. */
export interface StructuredOutputInput extends Open {
  name: string;
  /** JSON Schema of the value extracted from a call. */
  schema: Open;
  type?: StructuredOutputType;
  regex?: string;
  description?: string;
  model?: Model | Open;
  assistantIds?: string[];
  workflowIds?: string[];
}

/** A stored structured output. */
export interface StructuredOutput extends Stored, StructuredOutputInput {}

/** The body of `POST /structured-output/run`. */
export interface StructuredOutputRunInput extends Open {
  callIds: string[];
  structuredOutputId?: string;
  structuredOutput?: StructuredOutputInput;
  previewEnabled?: boolean;
}

/** The value one structured output extracted from one call. */
export interface StructuredOutputRunResult extends Open {
  name: string;
  result: string | number | boolean | Open | unknown[];
}

/** A mock conversation an eval plays against an assistant. */
export interface EvalInput extends Open {
  type: 'chat.mockConversation';
  messages: Open[];
  name?: string;
  description?: string;
}

/** A stored eval. */
export interface Eval extends Stored, EvalInput {}

/** What an eval or simulation runs against: an assistant or a squad, keyed by `type`. */
export interface RunTarget extends Open {
  type: 'assistant' | 'squad';
  assistantId?: string;
  assistant?: AssistantInput;
  squadId?: string;
  squad?: Open;
}

/** The body of `POST /eval/run`. */
export interface EvalRunInput extends Open {
  type: 'eval';
  target: RunTarget;
  evalId?: string;
  eval?: EvalInput;
}

/** The verdict of one eval run. */
export interface EvalRunResult extends Open {
  status: 'pass' | 'fail';
  messages: Open[];
  startedAt: string;
  endedAt: string;
}

/** A run of an eval: queued, running, then ended with results. */
export interface EvalRun extends Open {
  id: string;
  orgId: string;
  createdAt: string;
  type: 'eval';
  status: 'queued' | 'running' | 'ended';
  endedReason: 'mockConversation.done' | 'error' | 'timeout' | 'cancelled' | 'aborted';
  target: RunTarget;
  startedAt: string;
  endedAt: string;
  results: EvalRunResult[];
  cost: number;
  costs: Open[];
  evalId?: string;
}

/** Fields of a simulated caller's personality that can be written. */
export interface SimulationPersonalityInput extends Open {
  name: string;
  /** The assistant that plays the caller. */
  assistant: AssistantInput;
  path?: string;
}

/** A stored personality for simulated callers. */
export interface SimulationPersonality extends Stored, SimulationPersonalityInput {}

/** One check of a scenario: a structured output compared with a value. */
export interface EvaluationPlanItem extends Open {
  comparator: '=' | '!=' | '>' | '<' | '>=' | '<=';
  value: number | string | boolean;
  structuredOutputId?: string;
  structuredOutput?: StructuredOutputInput;
  required?: boolean;
}

/** Fields of a simulation scenario that can be written. */
export interface SimulationScenarioInput extends Open {
  name: string;
  instructions: string;
  evaluations: EvaluationPlanItem[];
  toolMocks?: Open[];
  path?: string;
}

/** A stored simulation scenario. */
export interface SimulationScenario extends Stored, SimulationScenarioInput {}

/** A scenario the platform proposes from an assistant's configuration. */
export interface GeneratedScenario extends Open {
  name: string;
  instructions: string;
  category: 'happy_path' | 'edge_case' | 'failure_mode';
  reasoning: string;
}

/** Fields of a simulation (a scenario played by a personality) that can be written. */
export interface SimulationInput extends Open {
  scenarioId: string;
  personalityId: string;
  name?: string;
  path?: string;
}

/** A stored simulation. */
export interface Simulation extends Stored, SimulationInput {}

/** Fields of a simulation suite that can be written. */
export interface SimulationSuiteInput extends Open {
  name: string;
  simulationIds: string[];
  targetAssignments?: Array<{ targetType: 'assistant' | 'squad'; targetId: string }>;
  slackWebhookUrl?: string;
  path?: string;
}

/** A stored simulation suite. */
export interface SimulationSuite extends Stored, SimulationSuiteInput {
  targetAssignments: Array<{ targetType: 'assistant' | 'squad'; targetId: string }>;
}

/** The body of `POST /eval/simulation/run`. */
export interface SimulationRunInput extends Open {
  simulations: Open[];
  target: RunTarget;
  iterations?: number;
}

/** A run of simulations: queued, running, then ended. */
export interface SimulationRun extends Stored {
  status: 'queued' | 'running' | 'ended';
  queuedAt: string;
  startedAt?: string;
  endedAt?: string;
  endedReason?: string;
  simulations: Open[];
  target: RunTarget;
  itemCounts?: Open;
  iterations?: number;
}

/** The answer to starting a simulation run: the run, its items and where to watch it. */
export interface SimulationRunStarted extends SimulationRun {
  simulationRunItemIds: string[];
  url: string;
  message?: string;
}

/** One simulated conversation of a run. */
export interface SimulationRunItem extends Stored {
  simulationId: string;
  status: 'queued' | 'running' | 'evaluating' | 'passed' | 'failed' | 'canceled';
  queuedAt: string;
  runId?: string;
  callId?: string;
  startedAt?: string;
  completedAt?: string;
  results?: Open;
}

/** How many simulations an organisation may run at once. */
export interface SimulationConcurrency extends Open {
  orgId: string;
  concurrencyLimit: number;
  activeSimulations: number;
  availableToStart: number;
  isDefault: boolean;
}

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
