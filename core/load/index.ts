// `voice load`: the platform's traffic, shaped like a busy day, against the developer's own server.
export { runLoad, startTimes, checkOptions, LoadOptionsError } from './engine.js';
export { deadlineOf } from './post.js';
export { exportArtillery } from './artillery.js';
export { recordCalls } from './record.js';
export type { KeptMessage, RecordedCall } from './record.js';
export type { ArtilleryExport } from './artillery.js';
export { quantile } from './stats.js';
export { ASSISTANT_REQUEST_SECONDS, FAULTS } from './types.js';
export type { Fault, LiveFigures, LoadOptions, LoadResult, PostFn, Sample, TypeFigures } from './types.js';
export { loadScenario, ScenarioError } from '../emulator/calls/index.js';
export { VoiceError } from '../errors.js';
export type { Scenario } from '../emulator/calls/index.js';
