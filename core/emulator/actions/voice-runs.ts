// Voice-mode simulations on the local platform: each item is a call (`vapi.websocketCall`, on the
// `vapi.websocket` transport) the call engine plays on its audio loop, the target on its model and
// the tester writing its lines as the call goes. The ended call's timeline is written out for the
// item's structured outputs: the local stand-in for the audio the platform gives its extractor.
import type { Json } from '../../messages/index.js';
import type { ModelGateway } from '../../model/index.js';
import type { World } from '../../evals/types.js';
import { AUDIO_OFF, converseSimulated, logCall, timelineText } from '../calls/index.js';
import type { CallRunner } from '../calls/index.js';
import type { Store } from '../store/store.js';

/** The host's `voiceCall`: plays a voice-mode simulation as a call on the emulator's call engine. */
export function voiceCalls(store: Store, runner: CallRunner, gateway: ModelGateway | undefined): NonNullable<World['voiceCall']> {
  return async (input) => {
    const [first] = input.members;
    if (!gateway || !first) return { callId: '', messages: [], endedReason: 'error', failure: !gateway ? 'no model gateway' : 'the target has no assistant' };
    const members = input.members.length > 1 ? input.members : undefined;
    const call = store.insert('call', {
      type: 'vapi.websocketCall',
      status: 'queued',
      transport: { provider: 'vapi.websocket' },
      cost: 0,
      assistant: first,
      ...(typeof first.id === 'string' ? { assistantId: first.id } : {}),
    });
    logCall(store, call, `Voice-mode simulation call queued (${input.label})`);
    const caller = { next: input.next, turn: input.turn, maxTurns: input.maxTurns };
    const { session, outcome } = await runner.simulate(
      call,
      (s) => {
        s.assistant = first;
        const mocks = (input.toolMocks ?? []).filter((m) => m.enabled !== false);
        if (mocks.length) s.toolMocks = new Map(mocks.map((m) => [m.toolName, m.result ?? '']));
        return converseSimulated(s, gateway, caller, members);
      },
      input.noise,
    );
    const ended = store.get('call', call.id) ?? call;
    const data = runner.timeline(call.id);
    const recordingUrl = (ended.artifact as Json | undefined)?.recordingUrl;
    const latencies = data?.events.flatMap((e) => (e.type === 'latency' ? [e] : [])) ?? [];
    const avg = (key: 'turnLatency' | 'modelLatency' | 'voiceLatency' | 'transcriberLatency' | 'endpointingLatency'): number =>
      Math.round(latencies.reduce((n, l) => n + l[key], 0) / latencies.length);
    return {
      callId: call.id,
      messages: outcome?.messages ?? [],
      endedReason: String(ended.endedReason ?? 'unknown'),
      ...(outcome?.failure ? { failure: outcome.failure } : {}),
      ...(data ? { timeline: timelineText(data) } : {}),
      ...(session.audioOff ? { audioOff: AUDIO_OFF[session.audioOff] } : {}),
      ...(typeof recordingUrl === 'string' ? { recordingUrl } : {}),
      // The published LatencyMetrics, from the turns the call measured on its audio.
      ...(latencies.length
        ? {
            latencyMetrics: {
              turnCount: latencies.length,
              avgTurn: avg('turnLatency'),
              avgModel: avg('modelLatency'),
              avgVoice: avg('voiceLatency'),
              avgTranscriber: avg('transcriberLatency'),
              avgEndpointing: avg('endpointingLatency'),
            },
          }
        : {}),
    };
  };
}
