// voice/webcall: live voice calls in the browser, API-compatible with the platform's web SDK.
import { WebCall } from './webcall.js';

export { WebCall };
export default WebCall;
export { DEFAULT_BASE_URL, WebCallCreationError } from './create-call.js';
export type { WebCallPayload } from './create-call.js';
export { MISSING_TARGET, NO_CALL } from './errors.js';
export { VoiceError } from '../errors.js';
export { dailyTransportFactory, loadDaily } from './daily-transport.js';
export type { DailyLoader, DailyModule, DailyAdvancedConfig, DailyFactoryOptions, DailyCall } from './daily-transport.js';
export { SPEAKER } from './session.js';
export type * from './types.js';
