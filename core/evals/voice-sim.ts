// A simulation in voice mode (the run's transport `vapi.websocket`): the host plays it as a call on
// its audio loop, the tester's lines written by its model as the call goes and said as its
// persona's voice mode says (talking over the assistant, pausing, pressing keys, with noise).
import type { Json } from '../messages/index.js';
import type { Dialogue, ToolMock } from './dialogue.js';
import { DEFAULT_MAX_TURNS, testerSays } from './dialogue.js';
import type { World } from './types.js';
import { voiceModeOf, voiceTurn } from './voice-mode.js';

/** A voice-mode dialogue: the conversation, and the call's audio timeline written out when it had sound. */
export interface VoiceDialogue extends Dialogue {
  callId?: string;
  timeline?: string;
  audioOff?: string;
  recordingUrl?: string;
  latencyMetrics?: Json;
}

/** What a voice-mode dialogue needs. */
export interface VoiceInput {
  tester: Json;
  personality: Json;
  members: Json[];
  toolMocks?: readonly ToolMock[] | undefined;
  label: string;
  maxTurns?: number;
}

/** Plays one simulation as a call on the host's audio loop. */
export async function playVoice(world: World, input: VoiceInput): Promise<VoiceDialogue> {
  const failed = (failure: string): VoiceDialogue => ({ messages: [], endedReason: 'error', failure, toolCalls: [], modelMs: [] });
  const gateway = world.gateway;
  if (!gateway) return failed('no model gateway');
  if (!world.voiceCall) return failed('this platform plays simulations as chat only (voice mode runs on the local platform)');
  const voice = voiceModeOf(input.personality);
  if (voice?.problems.length) return failed(`the personality's assistant.metadata.voiceMode is not valid: ${voice.problems.map((p) => p.message).join('; ')}`);
  const modelMs: number[] = [];
  let lines = 0;
  const call = await world.voiceCall({
    members: input.members,
    async next(heard) {
      const said = await testerSays(gateway, input.tester, heard, `${input.label} tester turn ${++lines}`);
      modelMs.push(...said.modelMs);
      if (said.failure) return { failure: said.failure.message };
      return { line: said.text, end: said.end };
    },
    turn: (n) => voiceTurn(voice?.mode, n),
    maxTurns: input.maxTurns ?? DEFAULT_MAX_TURNS,
    ...(voice?.mode.noise ? { noise: voice.mode.noise } : {}),
    ...(input.toolMocks ? { toolMocks: input.toolMocks } : {}),
    label: input.label,
  });
  return {
    messages: call.messages,
    endedReason: call.endedReason,
    ...(call.failure ? { failure: call.failure } : {}),
    toolCalls: [],
    modelMs,
    callId: call.callId,
    ...(call.timeline ? { timeline: call.timeline } : {}),
    ...(call.audioOff ? { audioOff: call.audioOff } : {}),
    ...(call.recordingUrl ? { recordingUrl: call.recordingUrl } : {}),
    ...(call.latencyMetrics ? { latencyMetrics: call.latencyMetrics } : {}),
  };
}
