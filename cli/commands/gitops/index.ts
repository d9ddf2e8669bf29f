// Configuration as code: `voice pull` writes the account as files, `voice plan` shows what
// `voice apply` would change, `voice apply` makes the account match (gitops-common for the shared
// flags and the run around each).
export { applyCommand } from './apply.js';
export { planCommand } from './plan.js';
export { pullCommand } from './pull.js';
