// voice/react: React bindings of the web-call client.
export { prefetchWebCall, useWebCall } from './useWebCall.js';
export type { UseWebCall, UseWebCallOptions, WebCallListeners, WebCallTranscript } from './useWebCall.js';
