// Catalogue entries for the resources the platform publishes beyond the specification:
// structured outputs, evals and simulations, reporting, observability, monitoring and billing
// metrics. Spread into the one catalogue (catalogue.ts); nothing else lists these endpoints.
import { del, get, patch, post, shape } from './define.js';
import type * as M from './models.js';
import type * as N from './models-more.js';
import { PAGED } from './query-sets.js';

type Any = M.Open;
type Page<T> = M.Paginated<T>;

/** Published resources without a place in the specification, grouped as in the path. */
export const published = {
  structuredOutput: {
    list: get({ path: '/structured-output', list: 'paginated', query: ['id', 'name', 'sortBy', ...PAGED], summary: 'List structured outputs', shape: shape<never, Page<N.StructuredOutput>>() }),
    create: post({ path: '/structured-output', summary: 'Create a structured output (data extracted from calls)', shape: shape<N.StructuredOutputInput, N.StructuredOutput>() }),
    get: get({ path: '/structured-output/{id}', summary: 'Get a structured output', shape: shape<never, N.StructuredOutput>() }),
    update: patch({ path: '/structured-output/{id}', query: ['schemaOverride'], summary: 'Update a structured output', shape: shape<M.Update<N.StructuredOutputInput>, N.StructuredOutput>() }),
    delete: del({ path: '/structured-output/{id}', summary: 'Delete a structured output', shape: shape<never, N.StructuredOutput>() }),
    run: post({ path: '/structured-output/run', summary: 'Extract structured outputs from ended calls', shape: shape<N.StructuredOutputRunInput, Any>() }),
  },
  eval: {
    create: post({ path: '/eval', summary: 'Create an eval (a mock conversation with expectations)', shape: shape<N.EvalInput, N.Eval>() }),
    list: get({ path: '/eval', list: 'paginated', query: ['id', 'sortBy', ...PAGED], summary: 'List evals', shape: shape<never, Page<N.Eval>>() }),
    get: get({ path: '/eval/{id}', summary: 'Get an eval', shape: shape<never, N.Eval>() }),
    update: patch({ path: '/eval/{id}', summary: 'Update an eval', shape: shape<M.Update<N.EvalInput>, N.Eval>() }),
    delete: del({ path: '/eval/{id}', summary: 'Delete an eval', shape: shape<never, N.Eval>() }),
    run: {
      create: post({ path: '/eval/run', summary: 'Run an eval against an assistant or squad', shape: shape<N.EvalRunInput, N.EvalRun>() }),
      list: get({ path: '/eval/run', list: 'paginated', query: ['id', 'sortBy', ...PAGED], summary: 'List eval runs', shape: shape<never, Page<N.EvalRun>>() }),
      get: get({ path: '/eval/run/{id}', summary: 'Get an eval run and its results', shape: shape<never, N.EvalRun>() }),
      delete: del({ path: '/eval/run/{id}', summary: 'Delete an eval run', shape: shape<never, N.EvalRun>() }),
    },
    simulation: {
      create: post({ path: '/eval/simulation', summary: 'Create a simulation (a scenario played by a personality)', shape: shape<N.SimulationInput, N.Simulation>() }),
      list: get({ path: '/eval/simulation', list: 'plain', query: ['idAny', 'standaloneOnly', 'sortBy', ...PAGED], summary: 'List simulations', shape: shape<never, N.Simulation[]>() }),
      get: get({ path: '/eval/simulation/{id}', summary: 'Get a simulation', shape: shape<never, N.Simulation>() }),
      update: patch({ path: '/eval/simulation/{id}', summary: 'Update a simulation', shape: shape<M.Update<N.SimulationInput>, N.Simulation>() }),
      delete: del({ path: '/eval/simulation/{id}', summary: 'Delete a simulation', shape: shape<never, N.Simulation>() }),
      concurrency: get({ path: '/eval/simulation/concurrency', summary: 'Show how many simulations may run at once', shape: shape<never, N.SimulationConcurrency>() }),
      personality: {
        create: post({ path: '/eval/simulation/personality', summary: 'Create a personality for simulated callers', shape: shape<N.SimulationPersonalityInput, N.SimulationPersonality>() }),
        list: get({ path: '/eval/simulation/personality', list: 'plain', query: ['sortBy', ...PAGED], summary: 'List personalities', shape: shape<never, N.SimulationPersonality[]>() }),
        get: get({ path: '/eval/simulation/personality/{id}', summary: 'Get a personality', shape: shape<never, N.SimulationPersonality>() }),
        update: patch({ path: '/eval/simulation/personality/{id}', summary: 'Update a personality', shape: shape<M.Update<N.SimulationPersonalityInput>, N.SimulationPersonality>() }),
        delete: del({ path: '/eval/simulation/personality/{id}', summary: 'Delete a personality', shape: shape<never, N.SimulationPersonality>() }),
      },
      scenario: {
        create: post({ path: '/eval/simulation/scenario', summary: 'Create a scenario for simulated calls', shape: shape<N.SimulationScenarioInput, N.SimulationScenario>() }),
        list: get({ path: '/eval/simulation/scenario', list: 'plain', query: ['idAny', 'name', 'sortBy', ...PAGED], summary: 'List scenarios', shape: shape<never, N.SimulationScenario[]>() }),
        get: get({ path: '/eval/simulation/scenario/{id}', summary: 'Get a scenario', shape: shape<never, N.SimulationScenario>() }),
        update: patch({ path: '/eval/simulation/scenario/{id}', summary: 'Update a scenario', shape: shape<M.Update<N.SimulationScenarioInput>, N.SimulationScenario>() }),
        delete: del({ path: '/eval/simulation/scenario/{id}', summary: 'Delete a scenario', shape: shape<never, N.SimulationScenario>() }),
        generate: post({ path: '/eval/simulation/scenario/generate', summary: 'Propose scenarios for an assistant', shape: shape<Any, { scenarios: N.GeneratedScenario[]; coverageNotes: string }>() }),
      },
      suite: {
        create: post({ path: '/eval/simulation/suite', summary: 'Create a simulation suite', shape: shape<N.SimulationSuiteInput, N.SimulationSuite>() }),
        list: get({ path: '/eval/simulation/suite', list: 'plain', query: ['name', 'sortBy', ...PAGED], summary: 'List simulation suites', shape: shape<never, N.SimulationSuite[]>() }),
        get: get({ path: '/eval/simulation/suite/{id}', summary: 'Get a simulation suite', shape: shape<never, N.SimulationSuite>() }),
        update: patch({ path: '/eval/simulation/suite/{id}', summary: 'Update a simulation suite', shape: shape<M.Update<N.SimulationSuiteInput>, N.SimulationSuite>() }),
        delete: del({ path: '/eval/simulation/suite/{id}', summary: 'Delete a simulation suite', shape: shape<never, N.SimulationSuite>() }),
      },
      run: {
        create: post({ path: '/eval/simulation/run', summary: 'Start a run of simulations against an assistant or squad', shape: shape<N.SimulationRunInput, N.SimulationRunStarted>() }),
        list: get({
          path: '/eval/simulation/run',
          list: 'paginated',
          query: ['status', 'filterStatus', 'targetType', 'targetId', 'sortBy', ...PAGED],
          summary: 'List simulation runs',
          shape: shape<never, Page<N.SimulationRun>>(),
        }),
        get: get({ path: '/eval/simulation/run/{id}', summary: 'Get a simulation run', shape: shape<never, N.SimulationRun>() }),
        cancel: patch({ path: '/eval/simulation/run/{id}', body: 'none', summary: 'Cancel a simulation run', shape: shape<never, N.SimulationRun>() }),
        item: {
          list: get({
            path: '/eval/simulation/run/{id}/item',
            list: 'plain',
            query: ['simulationId', 'runId', 'status', 'sortBy', ...PAGED],
            summary: 'List the simulated conversations of a run',
            shape: shape<never, N.SimulationRunItem[]>(),
          }),
          get: get({ path: '/eval/simulation/run/{id}/item/{itemId}', summary: 'Get one simulated conversation of a run', shape: shape<never, N.SimulationRunItem>() }),
          cancel: patch({ path: '/eval/simulation/run/{id}/item/{itemId}', body: 'none', summary: 'Cancel one simulated conversation', shape: shape<never, N.SimulationRunItem>() }),
          suggest: post({
            path: '/eval/simulation/run/{id}/item/{itemId}/generate',
            body: 'none',
            query: ['force', 'persist'],
            summary: 'Suggest improvements from a simulated conversation',
            shape: shape<never, Any>(),
          }),
        },
      },
    },
  },
  reporting: {
    insight: {
      create: post({ path: '/reporting/insight', summary: 'Create an insight (a bar, pie, line or text chart over calls)', shape: shape<N.InsightInput, N.Insight>() }),
      list: get({ path: '/reporting/insight', list: 'paginated', query: ['id', 'sortBy', ...PAGED], summary: 'List insights', shape: shape<never, Page<N.Insight>>() }),
      get: get({ path: '/reporting/insight/{id}', summary: 'Get an insight', shape: shape<never, N.Insight>() }),
      update: patch({ path: '/reporting/insight/{id}', summary: 'Update an insight', shape: shape<M.Update<N.InsightInput>, N.Insight>() }),
      delete: del({ path: '/reporting/insight/{id}', summary: 'Delete an insight', shape: shape<never, N.Insight>() }),
      run: post({ path: '/reporting/insight/{id}/run', summary: 'Compute an insight now', shape: shape<Any, N.InsightRun>() }),
      preview: post({ path: '/reporting/insight/preview', summary: 'Compute an insight without saving it', shape: shape<N.InsightInput, N.InsightRun>() }),
    },
    board: {
      create: post({ path: '/reporting/board', summary: 'Create a reporting board', shape: shape<{ name: string; layout: Any } & Any, N.Board>() }),
      list: get({ path: '/reporting/board', list: 'paginated', query: ['sortBy', ...PAGED], summary: 'List reporting boards', shape: shape<never, Page<N.Board>>() }),
      metricsOverview: get({ path: '/reporting/board/default/metrics-overview', summary: 'Get the default metrics overview board', shape: shape<never, N.Board>() }),
      get: get({ path: '/reporting/board/{id}', summary: 'Get a reporting board', shape: shape<never, N.Board>() }),
      update: patch({ path: '/reporting/board/{id}', summary: 'Update a reporting board', shape: shape<Any, N.Board>() }),
      delete: del({ path: '/reporting/board/{id}', summary: 'Delete a reporting board', shape: shape<never, N.Board>() }),
    },
  },
  observability: {
    scorecard: {
      create: post({ path: '/observability/scorecard', summary: 'Create a scorecard (metrics over structured outputs)', shape: shape<{ metrics: N.ScorecardMetric[] } & Any, N.Scorecard>() }),
      list: get({ path: '/observability/scorecard', list: 'paginated', query: ['id', 'sortBy', ...PAGED], summary: 'List scorecards', shape: shape<never, Page<N.Scorecard>>() }),
      get: get({ path: '/observability/scorecard/{id}', summary: 'Get a scorecard', shape: shape<never, N.Scorecard>() }),
      update: patch({ path: '/observability/scorecard/{id}', summary: 'Update a scorecard', shape: shape<Any, N.Scorecard>() }),
      delete: del({ path: '/observability/scorecard/{id}', summary: 'Delete a scorecard', shape: shape<never, N.Scorecard>() }),
    },
  },
  monitoring: {
    issue: {
      list: get({
        path: '/monitoring/issue',
        list: 'plain',
        query: ['id', 'monitorId', 'policyId', 'status', ...PAGED],
        summary: 'List monitoring issues',
        shape: shape<never, N.MonitoringIssue[]>(),
      }),
      get: get({ path: '/monitoring/issue/{id}', summary: 'Get a monitoring issue', shape: shape<never, N.MonitoringIssue>() }),
      update: patch({ path: '/monitoring/issue/{id}', summary: 'Acknowledge or resolve a monitoring issue', shape: shape<{ status?: N.MonitoringIssue['status'] } & Any, N.MonitoringIssue>() }),
    },
    policy: {
      list: get({ path: '/monitoring/policy', list: 'plain', query: ['id', 'severity', 'monitorId', ...PAGED], summary: 'List monitoring policies', shape: shape<never, N.MonitoringPolicy[]>() }),
      create: post({ path: '/monitoring/policy', summary: 'Create a monitoring policy', shape: shape<Omit<N.MonitoringPolicy, 'id' | 'orgId' | 'createdAt' | 'updatedAt'>, N.MonitoringPolicy>() }),
      get: get({ path: '/monitoring/policy/{id}', summary: 'Get a monitoring policy', shape: shape<never, N.MonitoringPolicy>() }),
      update: patch({ path: '/monitoring/policy/{id}', summary: 'Update a monitoring policy', shape: shape<Any, N.MonitoringPolicy>() }),
      delete: del({ path: '/monitoring/policy/{id}', summary: 'Delete a monitoring policy', shape: shape<never, N.MonitoringPolicy>() }),
    },
  },
  metrics: {
    get: get({
      path: '/metrics',
      deprecated: true,
      query: ['timezone', 'rangeStart', 'rangeEnd'],
      summary: 'Show billing metrics (calls, minutes, bill) for a range',
      shape: shape<never, N.Metrics[]>(),
    }),
  },
} as const;
