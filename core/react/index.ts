// voice/react: React bindings of the web-call client.
export { prefetchWebCall, useWebCall } from './useWebCall.js';
export type { UseWebCall, UseWebCallOptions, WebCallTranscript } from './useWebCall.js';
