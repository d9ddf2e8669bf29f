// One simulation run item: hooks, the tester and target talking, then each of the scenario's
// evaluations (a structured output extracted from the conversation, compared with its value).
// It passes only when something was judged and every required evaluation passed.
import type { Json } from '../messages/index.js';
import type { ChatMessage } from '../model/index.js';
import { needsAudio } from './audio.js';
import { cannotCompare, compare, valueAt } from './compare.js';
import type { Comparator, Primitive } from './compare.js';
import { playDialogue, testerOf } from './dialogue.js';
import type { ToolMock } from './dialogue.js';
import { extract, transcriptOf } from './extract.js';
import type { Extraction } from './extract.js';
import { NO_MODEL_REASON } from './reasons.js';
import { VOICE_TRANSPORT } from './voice-mode.js';
import { playVoice } from './voice-sim.js';
import type { VoiceDialogue } from './voice-sim.js';
import { noModelReason, resolveTarget } from './types.js';
import type { Target, World } from './types.js';

/** What one item runs. */
export interface ItemInput {
  scenario: Json;
  personality: Json;
  target: Target;
  /** `vapi.webchat` (chat, the default) or `vapi.websocket` (voice mode: a call on the host's audio loop). */
  transport?: string;
  /** Names the item in cassette labels. */
  label: string;
  maxTurns?: number;
}

/** An evaluation's result in the published `StructuredOutputEvaluationResult` shape. */
export type EvaluationResult = Json & { passed: boolean; required: boolean; isSkipped?: boolean; error?: string };

/** What an item ended with: its status, results and the fields the published item carries. */
export interface ItemOutcome {
  status: 'passed' | 'failed';
  failureReason?: string;
  results?: { evaluations: EvaluationResult[]; passed: boolean; latencyMetrics?: Json };
  call?: { transcript: string; messages: Json[]; endedReason: string; callId?: string; recordingUrl?: string };
  hooks?: Json;
}

function primitiveOrNull(v: unknown): Primitive | null {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

async function fireHooks(world: World, hooks: unknown, on: string, payload: Json, conversation?: { transcript: string; messages: ChatMessage[] }): Promise<Json[]> {
  const fired: Json[] = [];
  for (const hook of Array.isArray(hooks) ? (hooks as Json[]) : []) {
    if (hook.on !== on) continue;
    for (const action of Array.isArray(hook.do) ? (hook.do as Json[]) : []) {
      const server = action.server as Json | undefined;
      if (action.type !== 'webhook' || !server) continue;
      const include = (action.include as Json | undefined) ?? {};
      const body: Json = {
        message: {
          type: on,
          ...payload,
          ...(conversation && include.transcript ? { transcript: conversation.transcript } : {}),
          ...(conversation && include.messages ? { messages: conversation.messages } : {}),
        },
      };
      fired.push({ on, ...(await world.postHook(server, body)) });
    }
  }
  return fired;
}

/** The evaluations of a scenario judged against a conversation; extraction runs once per structured output. */
export async function evaluate(
  world: World,
  evaluations: readonly Json[],
  messages: readonly ChatMessage[],
  fallbackModel: Json | undefined,
  label: string,
  audio: AudioInput,
): Promise<EvaluationResult[]> {
  const cache = new Map<Json, Promise<Extraction>>();
  const out: EvaluationResult[] = [];
  for (const [i, e] of evaluations.entries()) {
    const output = typeof e.structuredOutputId === 'string' ? world.structuredOutput(e.structuredOutputId) : (e.structuredOutput as Json | undefined);
    const path = typeof e.path === 'string' && e.path ? e.path : undefined;
    const base: EvaluationResult = {
      structuredOutputId: typeof e.structuredOutputId === 'string' ? e.structuredOutputId : `inline-${i + 1}`,
      name: String(output?.name ?? e.structuredOutputId ?? `evaluation ${i + 1}`),
      ...(path ? { path } : {}),
      ...(output?.schema ? { schema: output.schema } : {}),
      extractedValue: null,
      expectedValue: primitiveOrNull(e.value) ?? String(e.value),
      comparator: (e.comparator as Comparator) ?? '=',
      passed: false,
      required: e.required !== false,
    };
    if (!output) {
      out.push({ ...base, error: typeof e.structuredOutputId === 'string' ? `the structured output ${e.structuredOutputId} does not exist` : 'the evaluation names no structured output' });
      continue;
    }
    const needs = audio.timeline === undefined ? needsAudio(output, path) : undefined;
    if (needs) {
      out.push({ ...base, isSkipped: true, skipReason: `${audio.skipped ?? 'Skipped in a chat run'}: ${needs}.` });
      continue;
    }
    const problem = cannotCompare(output.schema as Json | undefined, path, e.comparator, e.value);
    if (problem) {
      out.push({ ...base, error: problem });
      continue;
    }
    let pending = cache.get(output);
    if (!pending) cache.set(output, (pending = extract(world.gateway, output, messages, fallbackModel, `${label} extract ${base.name}`, audio.timeline)));
    const got = await pending;
    if (!got.ok) {
      out.push({ ...base, error: got.error });
      continue;
    }
    const value = valueAt(got.value, path);
    const verdict = compare(value, e.comparator as Comparator, e.value as Primitive);
    out.push({ ...base, extractedValue: primitiveOrNull(value), passed: verdict.passed, ...(verdict.error ? { error: verdict.error } : {}) });
  }
  return out;
}

/** What the evaluations have of the call's audio: its timeline written out (voice mode with sound), or why the audio-only ones are skipped. */
export interface AudioInput {
  timeline?: string;
  /** The start of an audio-only evaluation's skip reason (default: a chat run's). */
  skipped?: string;
}

/** Whether evaluations add up to a pass, and why not. */
export function verdictOf(evaluations: readonly EvaluationResult[]): { passed: boolean; reason?: string } {
  if (!evaluations.length) return { passed: false, reason: 'The scenario has no evaluations, so nothing was judged.' };
  const judged = evaluations.filter((e) => !e.isSkipped && !e.error);
  if (!judged.length) {
    const why = evaluations.map((e) => `${e.name}: ${e.error ?? String(e.skipReason ?? 'skipped')}`).join('; ');
    return { passed: false, reason: `No evaluation could be judged (${why}).` };
  }
  const bad = evaluations.filter((e) => e.required && !e.isSkipped && (!e.passed || e.error));
  if (!bad.length) return { passed: true };
  const show = (e: EvaluationResult): string =>
    e.error
      ? `${e.name}${e.path ? `.${String(e.path)}` : ''}: ${e.error}`
      : `${e.name}${e.path ? `.${String(e.path)}` : ''}: expected ${String(e.comparator)} ${JSON.stringify(e.expectedValue)}, extracted ${JSON.stringify(e.extractedValue)}`;
  return { passed: false, reason: bad.map(show).join('; ') };
}

/** Runs one item to its end; never throws. */
export async function runItem(world: World, input: ItemInput): Promise<ItemOutcome> {
  const scenario = input.scenario;
  const resolved = resolveTarget(world, input.target, scenario.targetOverrides as Json | undefined);
  if (typeof resolved === 'string') return { status: 'failed', failureReason: `The run could not start: ${resolved}.` };
  const voice = input.transport === VOICE_TRANSPORT;
  const tester = testerOf(input.personality, String(scenario.instructions ?? ''), voice);
  const noModel = noModelReason(world, [tester, ...resolved.members], NO_MODEL_REASON);
  if (noModel) return { status: 'failed', failureReason: noModel };
  const started = await fireHooks(world, scenario.hooks, 'simulation.run.started', { scenario: { name: scenario.name } });
  const turns = input.maxTurns ? { maxTurns: input.maxTurns } : {};
  const dialogue: VoiceDialogue = voice
    ? await playVoice(world, { tester, personality: input.personality, members: resolved.members, toolMocks: scenario.toolMocks as ToolMock[] | undefined, label: input.label, ...turns })
    : await playDialogue(world, { tester, members: resolved.members, toolMocks: scenario.toolMocks as ToolMock[] | undefined, label: input.label, ...turns });
  const transcript = transcriptOf(dialogue.messages);
  const call = {
    transcript,
    messages: dialogue.messages as unknown as Json[],
    endedReason: dialogue.endedReason,
    ...(dialogue.callId ? { callId: dialogue.callId } : {}),
    ...(dialogue.recordingUrl ? { recordingUrl: dialogue.recordingUrl } : {}),
  };
  const endedHooks = await fireHooks(
    world,
    scenario.hooks,
    'simulation.run.ended',
    { scenario: { name: scenario.name }, endedReason: dialogue.endedReason },
    { transcript, messages: dialogue.messages },
  );
  const hooks = { fired: [...started, ...endedHooks], toolCalls: dialogue.toolCalls };
  if (dialogue.failure) return { status: 'failed', failureReason: `The conversation failed: ${dialogue.failure}`, call, hooks };
  const fallback = (resolved.members[0] as Json).model as Json | undefined;
  const audio: AudioInput = !voice
    ? {}
    : dialogue.timeline
      ? { timeline: dialogue.timeline }
      : { skipped: `Skipped in a voice-mode run whose call had no sound (${dialogue.audioOff ?? 'audio is off'})` };
  const evaluations = await evaluate(world, (scenario.evaluations as Json[] | undefined) ?? [], dialogue.messages, fallback, input.label, audio);
  const verdict = verdictOf(evaluations);
  const ms = dialogue.modelMs;
  const turnCount = dialogue.messages.filter((m) => m.role === 'assistant' && m.content).length;
  const latencyMetrics = dialogue.latencyMetrics ?? (ms.length ? { turnCount, avgModel: Math.round(ms.reduce((a, b) => a + b, 0) / ms.length) } : undefined);
  return {
    status: verdict.passed ? 'passed' : 'failed',
    ...(verdict.reason ? { failureReason: verdict.reason } : {}),
    results: { evaluations, passed: verdict.passed, ...(latencyMetrics ? { latencyMetrics } : {}) },
    call,
    hooks,
  };
}
