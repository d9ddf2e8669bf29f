// Create-time defaults and labels of the published resources beyond the spec (structured
// outputs, evals, simulations, reporting, observability, monitoring, v2 knowledge bases). Their
// bodies are checked against the platform's published schemas (schema-check.ts), so no body
// rules live here.
import { randomUUID } from 'node:crypto';

/** Collections of the published resources, by collection name (typed where collections.ts spreads them in, so no import runs back). */
export const PUBLISHED_COLLECTIONS = {
  'structured-output': { label: 'Structured output' },
  'eval/run': { label: 'Eval run' },
  'eval/simulation/personality': { label: 'Personality' },
  'eval/simulation/scenario': { label: 'Scenario' },
  'eval/simulation/suite': { label: 'Simulation suite', defaults: () => ({ targetAssignments: [] }) },
  'eval/simulation/run': { label: 'Simulation run' },
  'eval/simulation/run/item': { label: 'Simulation run item' },
  'reporting/insight': { label: 'Insight' },
  'reporting/board': { label: 'Board' },
  'observability/scorecard': { label: 'Scorecard' },
  'monitoring/issue': { label: 'Issue' },
  'monitoring/policy': { label: 'Policy' },
  'v2/knowledge-base': { label: 'Knowledge base', defaults: () => ({ toolId: randomUUID() }) },
  'v2/knowledge-base/file': { label: 'Knowledge base file' },
  'provider-resource': { label: 'Provider resource' },
};
