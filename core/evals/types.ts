// What evals, simulations and structured-output runs need from their host (the emulator, or a
// test): the model step, the store's resources, and the developer's servers. Nothing here knows
// about HTTP routes or the store's layout.
import type { Json } from '../messages/index.js';
import type { ChatMessage, ModelGateway, ModelToolCall } from '../model/index.js';
import type { VoiceMode, VoiceTurn } from './voice-mode.js';

/** The host a run is played in. */
export interface World {
  /** The door to models; undefined when none could be made (every run then fails saying so). */
  gateway: ModelGateway | undefined;
  /** An assistant from `{ assistant | assistantId }` with overrides merged; undefined when it names nothing. */
  assistant(ref: Json, overrides?: Json): Json | undefined;
  /** A squad's member assistants from `{ squad | squadId }`; undefined when it names nothing. */
  squad(ref: Json): Json[] | undefined;
  /** Every tool an assistant can use (inline and by id). */
  tools(assistant: Json): Json[];
  /** A stored structured output by id. */
  structuredOutput(id: string): Json | undefined;
  /** Sends a tool call to its server the way a call does (`tool-calls`), answering its result or error. */
  callTool(call: ModelToolCall, tool: Json | undefined, assistant: Json): Promise<{ result?: string; error?: string }>;
  /** Posts a simulation hook's webhook; resolves with what happened (never throws). */
  postHook(server: Json, body: Json): Promise<{ url: string; status?: number; error?: string }>;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Plays a voice-mode simulation on the host's audio loop (the local platform); absent where there is none. */
  voiceCall?(input: VoiceCallInput): Promise<VoiceCallResult>;
}

/** A voice-mode simulation's call, as the host plays it. */
export interface VoiceCallInput {
  /** The target's members (the first answers). */
  members: Json[];
  /** The tester's next line from the conversation it heard; `end` when it hangs up. */
  next(heard: readonly ChatMessage[]): Promise<{ line?: string; end?: boolean; failure?: string }>;
  /** How the tester says its line `n` (0-based). */
  turn(n: number): VoiceTurn;
  maxTurns: number;
  noise?: VoiceMode['noise'];
  /** The scenario's tool mocks: these tools' results, instead of calling their servers. */
  toolMocks?: readonly { toolName: string; result?: string; enabled?: boolean }[];
  label: string;
}

/** How a voice-mode call went. */
export interface VoiceCallResult {
  callId: string;
  /** The conversation as the target's model saw it (cut lines as far as they were said). */
  messages: ChatMessage[];
  endedReason: string;
  failure?: string;
  /** The call's audio timeline written out; absent when the call had no sound. */
  timeline?: string;
  /** Why the call had no sound, and how to give it some. */
  audioOff?: string;
  recordingUrl?: string;
  /** The published `LatencyMetrics` of the turns the call measured. */
  latencyMetrics?: Json;
}

/** A target as runs name it: `{ type: 'assistant', assistantId | assistant }` or `{ type: 'squad', squadId | squad }`. */
export type Target = Json & { type?: unknown };

/** The members a run talks to: one assistant, or a squad's members (the first speaks first). */
export interface Resolved {
  members: Json[];
  squad: boolean;
}

/** Resolves a target, with overrides applied to each member; a string says why it could not. */
export function resolveTarget(world: World, target: Target | undefined, overrides?: Json): Resolved | string {
  if (!target || typeof target !== 'object') return 'the run has no target';
  if (target.type === 'squad') {
    const members = world.squad(target);
    if (!members) return 'the target squad was not found or has no members';
    return { members: members.map((m) => (overrides ? (world.assistant({ assistant: m }, overrides) ?? m) : m)), squad: true };
  }
  const assistant = world.assistant(target, overrides);
  if (!assistant) return 'the target assistant was not found';
  return { members: [assistant], squad: false };
}

/** Why nothing ran, when a party of the run has no model to call; undefined when all do. */
export function noModelReason(world: World, parties: readonly Json[], hint: string): string | undefined {
  const { gateway } = world;
  if (gateway && parties.every((p) => gateway.configured(p))) return undefined;
  return `No model is configured, so nothing was run or judged. ${hint}`;
}
