// Types for structured outputs, evals and simulations (published beyond the specification).
// As in models.ts: the fields the reference marks required, the ones users rely on, and the
// discriminants; every object stays open for fields not listed here.
import type { AssistantInput, Model, Open, Stored } from './models.js';

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
