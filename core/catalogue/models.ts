// Types for the platform's main objects. Each names the fields users rely on and the
// discriminants of the unions; every object stays open for fields not listed here. The values of
// two discriminants are also exported, so the emulator validates against the same list.

export * from './models-base.js';
export * from './models-agents.js';
export * from './models-calls.js';
export * from './models-resources.js';
