// The calls' one face: everything outside calls/ (the emulator's other rooms, core/load) imports
// the call engine from here. Besides the engine it hands on what a call runs against (the store,
// the record, the default org), so the load generator can run calls without the HTTP server.
export { CallRunner, DEFAULT_KEEP_ENDED_CALLS } from './runner.js';
export type { RunnerOptions } from './runner.js';
export type { BrowserCall, BrowserCustomer, WebCallEngine } from './browser.js';
export { CallSession } from './session.js';
export type { CallDeps } from './session.js';
export { SimClock } from './clock.js';
export { converse } from './conversation.js';
export { loadScenario, parseScenario, ScenarioError, DEFAULT_SCENARIO } from './scenario.js';
export type { Scenario, ScenarioTurn } from './scenario.js';
export { MAGIC_NUMBERS } from './magic.js';
export { chooseServer, deliver, DEFAULT_TIMEOUT_SECONDS, RECORDED_ANSWER_CHARS, serverOf, withCredential } from './deliver.js';
export type { Delivered, ServerTarget } from './deliver.js';
export { assistantFrom, orgOf, squadFrom, toolsOf } from './resolve.js';
export { fillVariables } from './variables.js';
export { TurnRecorder } from './model-record.js';
export type { LifecycleType } from './notify.js';
export { logCall } from './log.js';
export { callRecordingWav } from './recording.js';
export { conversationOf } from './after-call.js';
export type { RecordingKind } from './recording.js';
export { liveLineOf } from './audio/live-line.js';
export type { LiveLine } from './live.js';
export { TIMELINES } from './audio/engine.js';
export { renderChannels } from './audio/render.js';
export type { CallChannels } from './audio/render.js';
export type * from './audio/timeline.js';
export { AUDIO_OFF, AUDIO_PACKAGE } from './audio/port.js';
export type { AudioOffReason, AudioPort } from './audio/port.js';
export { fragmentsOf, lineText } from './audio/utterance.js';
export type { Fragments } from './audio/utterance.js';
export { Store } from '../store/store.js';
export { EmulatorRecord } from '../store/record.js';
export type { Delivery, NewEvent, RecordEvent } from '../store/record.js';
export { ensureDefaultOrg } from '../store/default-org.js';
