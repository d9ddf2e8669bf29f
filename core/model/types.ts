// The model step's contract: what the emulator, chats and simulations hand to a model and get back.
import type { Json } from '../messages/index.js';

/** What the developer configured (voice dev --llm*, startEmulator({ model })). */
export interface ModelConfig {
  /** OpenAI-compatible base URL (e.g. http://127.0.0.1:11434/v1) for every provider but custom-llm. */
  url?: string;
  /** Bearer for `url`; never written anywhere. */
  apiKey?: string;
  /** One model name for every assistant, or a map "provider/model" -> name. */
  model?: string | Record<string, string>;
  /** Cassette file to write. */
  record?: string;
  /** Cassette file to answer from (no model called). */
  replay?: string;
  /** Injectable for tests. */
  fetch?: typeof fetch;
}

/** An OpenAI chat-completions message. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** One tool call the model made (arguments as the raw JSON text it streamed). */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One request to the model. */
export interface StepInput {
  /** Resolved assistant: model.{provider,model,url,messages,temperature,maxTokens,metadataSendMode,headers,credentialId,timeoutSeconds}, metadata. */
  assistant: Json;
  /** The assistant's resolved tool records (model.tools and model.toolIds), any type. */
  tools: Json[];
  /** The conversation so far WITHOUT the system prompt (the step prepends model.messages). */
  messages: ChatMessage[];
  /** Squad members, so a handoff tool can name its destinations. */
  members?: Json[];
  /** For custom-llm metadataSendMode. */
  context?: { call?: Json; phoneNumber?: Json; customer?: Json };
  /** Streamed text as it arrives. */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
  /** Names the turn in cassette-miss messages ("call 1234 turn 3"). */
  label?: string;
  /**
   * Runs the exchange with the model (from sending the request to the answer's end) when there is
   * room: a bound on requests in flight that leaves building the request, and what follows the
   * answer, outside it.
   */
  slot?: <T>(exchange: () => Promise<T>) => Promise<T>;
}

/** What a model step answered, or why it failed (with the platform's endedReason). A replayed answer carries the timings measured when it was recorded. */
export type StepResult =
  | { ok: true; text: string; toolCalls: ModelToolCall[]; firstTokenMs: number; totalMs: number; replayed: boolean; request: { url: string; body: Json } }
  | { ok: false; endedReason: string; message: string; status?: number; request?: { url: string; body: Json } };

/** The emulator's door to models. */
export interface ModelGateway {
  /** Whether this assistant has a model to call (custom-llm with a url, or a configured endpoint / cassette). */
  configured(assistant: Json | undefined): boolean;
  /** Sends one chat-completions request and streams the answer. */
  step(input: StepInput): Promise<StepResult>;
  /** One line for banners: what model endpoint or cassette is in use. */
  describe(): string;
}

/** Hooks a turn uses to run tools and report progress. */
export interface TurnHooks {
  /** Runs a function tool the model called (`tool` is undefined for a name the assistant lacks); the result or error goes back to the model. */
  callTool(call: ModelToolCall, tool: Json | undefined): Promise<{ result?: string; error?: string }>;
  /**
   * Runs every function tool one answer called, together (the platform sends them to a server as one
   * `tool-calls` message); outcomes in the calls' order. Without it, `callTool` runs them one by one.
   */
  callTools?(calls: { call: ModelToolCall; tool: Json | undefined }[]): Promise<{ result?: string; error?: string }[]>;
  /** Streamed text of every step as it arrives. */
  onDelta?(text: string): void;
  /** After each step that reached the model or the cassette. */
  onStep?(step: { request: { url: string; body: Json }; result: StepResult }): void;
}

/** One assistant turn: model steps and function-tool calls until the model speaks or acts. */
export interface TurnResult {
  /** Appended during the turn: assistant (with tool_calls), tool results, final assistant. */
  messages: ChatMessage[];
  text: string;
  action?: { kind: 'endCall'; tool: Json } | { kind: 'transferCall'; tool: Json; arguments: Json } | { kind: 'handoff'; tool: Json; arguments: Json; assistantName?: string };
  failure?: { endedReason: string; message: string };
  /** modelMs = time to first token per step. */
  latencies: { modelMs: number[]; toolMs: number[] };
}
