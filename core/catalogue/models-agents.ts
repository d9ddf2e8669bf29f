// The platform's agents: assistants (model, voice, transcriber, artifacts), squads and workflows.
import type { Open, Stored } from './models-base.js';

/** Providers of the language model behind an assistant. */
export type ModelProvider =
  | 'anthropic'
  | 'anthropic-bedrock'
  | 'anyscale'
  | 'cerebras'
  | 'custom-llm'
  | 'deepinfra'
  | 'deep-seek'
  | 'google'
  | 'groq'
  | 'inflection-ai'
  | 'minimax'
  | 'openai'
  | 'openrouter'
  | 'perplexity-ai'
  | 'together-ai'
  | 'xai'
  | 'vapi';

/** Providers of the synthesised voice. */
export type VoiceProvider =
  | 'azure'
  | 'cartesia'
  | 'custom-voice'
  | 'deepgram'
  | '11labs'
  | 'hume'
  | 'lmnt'
  | 'neuphonic'
  | 'openai'
  | 'playht'
  | 'wellsaid'
  | 'rime-ai'
  | 'smallest-ai'
  | 'tavus'
  | 'vapi'
  | 'sesame'
  | 'inworld'
  | 'minimax'
  | 'xai'
  | 'microsoft';

/** Providers of speech-to-text. */
export type TranscriberProvider =
  'assembly-ai' | 'azure' | 'custom-transcriber' | 'deepgram' | '11labs' | 'gladia' | 'google' | 'speechmatics' | 'talkscriber' | 'openai' | 'cartesia' | 'soniox' | 'xai' | 'vapi';

/** A chat message in a model configuration. */
export interface ModelMessage extends Open {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'function';
  content?: string;
}

/** The model an assistant thinks with, keyed by `provider`. */
export interface Model extends Open {
  provider: ModelProvider;
  model: string;
  messages?: ModelMessage[];
  maxTokens?: number;
  temperature?: number;
  emotionRecognitionEnabled?: boolean;
  toolIds?: string[];
}

/** The voice an assistant speaks with, keyed by `provider`. */
export interface Voice extends Open {
  provider: VoiceProvider;
  voiceId?: string;
}

/** The transcriber an assistant listens with, keyed by `provider`. */
export interface Transcriber extends Open {
  provider: TranscriberProvider;
  model?: string;
  language?: string;
}

/** Recording and artifact settings. */
export interface ArtifactPlan extends Open {
  recordingEnabled?: boolean;
  videoRecordingEnabled?: boolean;
}

/** Fields of an assistant that can be written. */
export interface AssistantInput extends Open {
  name?: string;
  firstMessage?: string;
  model?: Model;
  voice?: Voice;
  transcriber?: Transcriber;
  artifactPlan?: ArtifactPlan;
  metadata?: Record<string, unknown>;
}

/** A stored assistant. */
export interface Assistant extends Stored, AssistantInput {}

/** Per-call changes to an assistant's settings. */
export interface AssistantOverrides extends AssistantInput {
  variableValues?: Record<string, unknown>;
}

/** A member of a squad. */
export interface SquadMember extends Open {
  assistantId?: string;
  assistant?: AssistantInput;
  assistantOverrides?: AssistantOverrides;
}

/** Fields of a squad that can be written. */
export interface SquadInput extends Open {
  name?: string;
  members: SquadMember[];
}

/** A stored squad. */
export interface Squad extends Stored, SquadInput {}

/** Fields of a workflow that can be written. */
export interface WorkflowInput extends Open {
  name: string;
  nodes: Open[];
  edges: Open[];
  globalPrompt?: string;
}

/** A stored workflow. */
export interface Workflow extends Stored, WorkflowInput {}
