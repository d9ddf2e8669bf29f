// The model step: OpenAI chat-completions streaming to custom-llm URLs or the configured endpoint,
// tool-call assembly, cassettes. Knows nothing about calls; the emulator and chats drive it.
import type { Json } from '../messages/index.js';
import type { ModelConfig, ModelGateway, StepInput, TurnHooks, TurnResult } from './types.js';

export type * from './types.js';

/** How to give `voice dev` a model, for every place that says a conversation was scripted. */
export const NO_MODEL_HINT =
  'No model is configured, so this conversation was scripted. To run the assistant\'s model: ' +
  '`voice dev --llm http://127.0.0.1:11434/v1 --llm-model llama3.2` (any OpenAI-compatible server; ' +
  'add --llm-key or VOICE_LLM_KEY for a hosted one), give a custom-llm assistant its model.url, ' +
  'or replay a cassette with --llm-replay FILE.';

/** Creates the emulator's door to models from the developer's configuration. */
export function createModelGateway(config: ModelConfig, deps: { credential(id: string): Json | undefined; now?: () => number }): ModelGateway {
  void config;
  void deps;
  throw new Error('core/model: createModelGateway is not implemented yet');
}

/** Runs one assistant turn: model steps and function-tool calls until the model speaks, acts or fails. */
export async function runAssistantTurn(gateway: ModelGateway, input: Omit<StepInput, 'onDelta'>, hooks: TurnHooks, options?: { maxSteps?: number }): Promise<TurnResult> {
  void gateway;
  void input;
  void hooks;
  void options;
  throw new Error('core/model: runAssistantTurn is not implemented yet');
}

/** The assistant's tools as the OpenAI `tools` array the platform sends: function tools and the endCall / transferCall / handoff built-ins. */
export function toolsForModel(tools: Json[], members?: Json[]): Json[] {
  void tools;
  void members;
  throw new Error('core/model: toolsForModel is not implemented yet');
}
