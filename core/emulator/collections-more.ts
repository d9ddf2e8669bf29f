// Body rules and create-time defaults of the published resources beyond the spec (structured
// outputs, evals, simulations, reporting, observability, monitoring, v2 knowledge bases), from
// the required fields and enums of the platform's published create bodies.
import { randomUUID } from 'node:crypto';
import type { CollectionSpec } from './collections.js';

const TEXT = { type: 'string' } as const;

/** Collections of the published resources, by collection name. */
export const PUBLISHED_COLLECTIONS: Readonly<Record<string, CollectionSpec>> = {
  'structured-output': {
    label: 'Structured output',
    rules: { name: { type: 'string', required: true }, schema: { type: 'object', required: true }, type: { type: 'string', oneOf: ['ai', 'regex'] }, regex: TEXT, description: TEXT, assistantIds: { type: 'array' }, workflowIds: { type: 'array' } },
  },
  eval: { rules: { type: { type: 'string', required: true, oneOf: ['chat.mockConversation'] }, messages: { type: 'array', required: true }, name: TEXT, description: TEXT } },
  'eval/run': { label: 'Eval run' },
  'eval/simulation': { rules: { scenarioId: { type: 'string', required: true }, personalityId: { type: 'string', required: true }, name: TEXT, path: TEXT } },
  'eval/simulation/personality': { label: 'Personality', rules: { name: { type: 'string', required: true }, assistant: { type: 'object', required: true }, path: TEXT } },
  'eval/simulation/scenario': {
    label: 'Scenario',
    rules: { name: { type: 'string', required: true }, instructions: { type: 'string', required: true }, evaluations: { type: 'array', required: true }, hooks: { type: 'array' }, toolMocks: { type: 'array' }, path: TEXT },
  },
  'eval/simulation/suite': {
    label: 'Simulation suite',
    rules: { name: { type: 'string', required: true }, simulationIds: { type: 'array', required: true }, targetAssignments: { type: 'array' }, slackWebhookUrl: TEXT, path: TEXT },
    defaults: () => ({ targetAssignments: [] }),
  },
  'eval/simulation/run': { label: 'Simulation run' },
  'eval/simulation/run/item': { label: 'Simulation run item' },
  'reporting/insight': { label: 'Insight', rules: { type: { type: 'string', required: true, oneOf: ['bar', 'pie', 'line', 'text'] }, queries: { type: 'array', required: true }, name: TEXT, formulas: { type: 'array' } } },
  'reporting/board': { label: 'Board', rules: { name: { type: 'string', required: true }, layout: { type: 'object', required: true }, items: { type: 'array' } } },
  'observability/scorecard': { label: 'Scorecard', rules: { metrics: { type: 'array', required: true }, name: TEXT, description: TEXT, assistantIds: { type: 'array' } } },
  'monitoring/issue': { label: 'Issue', rules: { status: { type: 'string', oneOf: ['created', 'acknowledged', 'resolved'] }, acknowledgedBy: TEXT, resolvedBy: TEXT } },
  'monitoring/policy': {
    label: 'Policy',
    rules: { name: { type: 'string', required: true }, threshold: { type: 'object', required: true }, lookbackWindowMinutes: { type: 'number', required: true }, severity: { type: 'string', required: true, oneOf: ['error', 'warning', 'info'] }, monitorIds: { type: 'array' } },
  },
  'v2/knowledge-base': { label: 'Knowledge base', rules: { name: { type: 'string', required: true }, description: TEXT }, defaults: () => ({ toolId: randomUUID() }) },
  'v2/knowledge-base/file': { label: 'Knowledge base file' },
  'provider-resource': { label: 'Provider resource' },
};
