// Configuration as code over the platform's gitops layout: read and check a resources directory,
// plan against an account, apply, pull. Node-only (files). The CLI's pull, plan and apply are
// thin wrappers; `voice dev --apply DIR` can call plan + apply the same way.
export { KINDS, availableKinds, kindNamed } from './kinds.js';
export type { Kind, RefRule } from './kinds.js';
export { readProject, parseResource, EXTENSION_KEY } from './files.js';
export type { LocalResource, Problem, Project } from './files.js';
export { plan, planData, loadChecked } from './plan.js';
export { schemaProblems } from './check-schema.js';
export type { Plan, PlanItem, PlanOptions } from './plan.js';
export { apply } from './apply.js';
export type { ApplyOptions, ApplyResult } from './apply.js';
export { pull, kindsFor } from './pull.js';
export type { PullOptions, PulledFile } from './pull.js';
export { diff, covers } from './diff.js';
export type { Change } from './diff.js';
export { render } from './format.js';
export { readState, updateState, stateFileName } from './state.js';
export type { State, StateEntry } from './state.js';
export { ApplyError, GitopsInputError, showProblem } from './errors.js';
export { VoiceError } from '../errors.js';
export type { Done } from './errors.js';
