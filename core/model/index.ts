// The model step: OpenAI chat-completions streaming to custom-llm URLs or the configured endpoint,
// tool-call assembly, cassettes. Knows nothing about calls; the emulator and chats drive it.
export type * from './types.js';
export { createModelGateway, type GatewayDeps } from './gateway.js';
export { runAssistantTurn, DEFAULT_MAX_STEPS } from './turn.js';
export { toolsForModel, modelFunctions, handoffTarget, type ModelFunction, type ToolKind } from './tools.js';
export { endedReasonFor, familyOf } from './failures.js';
export { VoiceError } from '../errors.js';
export { requestHash, cassetteProblem } from './cassette.js';
export { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, DEFAULT_TIMEOUT_SECONDS } from './request.js';

/** How to give `voice dev` a model, for every place that says a conversation was scripted. */
export const NO_MODEL_HINT =
  "No model is configured, so this conversation was scripted. To run the assistant's model: " +
  '`voice dev --llm http://127.0.0.1:11434/v1 --llm-model llama3.2` (any OpenAI-compatible server; ' +
  'add --llm-key or VOICE_LLM_KEY for a hosted one), give a custom-llm assistant its model.url, ' +
  'or replay a cassette with --llm-replay FILE.';
