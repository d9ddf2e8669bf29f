// The artifact's `performanceMetrics` in the platform's shape: the model's time to first token is
// measured on each model turn; the voice, transcriber and endpointing latencies are simulated
// (the emulator has no speech pipeline), with fixed values typical of a hosted call. A call whose
// replies no model wrote gets stand-in model latencies too. Every stand-in is named in the object's
// `simulated` list, so no dashboard reads a made-up number as a measured one. Interruptions are
// counted in one place (`Interruptions`), which today's text timeline and a later audio engine call.
import type { Json } from '../../messages/index.js';

/** One turn's latencies in milliseconds (`TurnLatency`). */
export interface TurnLatency {
  modelLatency: number;
  voiceLatency: number;
  transcriberLatency: number;
  endpointingLatency: number;
  turnLatency: number;
}

/** Simulated milliseconds: text to speech's first audio, the transcriber's final, endpointing's wait; the model's when none runs. */
export const SIMULATED_MS = { voice: 250, transcriber: 150, endpointing: 300, model: 400 } as const;

/** The latencies the emulator never measures (it has no speech pipeline). */
const ALWAYS_SIMULATED = ['voiceLatency', 'transcriberLatency', 'endpointingLatency'] as const;

/** A turn's latencies from the model's measured time to first token. */
export function turnLatency(modelMs: number): TurnLatency {
  const model = Math.round(modelMs);
  const { voice, transcriber, endpointing } = SIMULATED_MS;
  return { modelLatency: model, voiceLatency: voice, transcriberLatency: transcriber, endpointingLatency: endpointing, turnLatency: model + voice + transcriber + endpointing };
}

/** How often each side cut the other off during a call (`numAssistantInterrupted`, `numUserInterrupted`). */
export class Interruptions {
  /** The customer spoke over the assistant, which stopped (the platform's `user-interrupted`). */
  assistant = 0;
  /** The assistant spoke over the customer. */
  user = 0;

  /** Counts one interruption of the assistant by the customer, or (`by: 'assistant'`) of the customer by the assistant. */
  count(by: 'user' | 'assistant'): void {
    if (by === 'user') this.assistant++;
    else this.user++;
  }
}

const average = (xs: number[]): number => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);

/**
 * The `PerformanceMetrics` object of a call: its model turns' latencies, or (no model ran) a
 * stand-in turn per reply the customer waited for (`replies`); with its interruption counts.
 */
export function performanceMetrics(measured: readonly TurnLatency[], interruptions: Interruptions = new Interruptions(), replies = 0, sound?: { scripted: boolean; transcribed?: boolean }): Json {
  const turns = measured.length ? measured : Array.from({ length: replies }, () => turnLatency(SIMULATED_MS.model));
  const of = (k: keyof TurnLatency): number => average(turns.map((t) => t[k]));
  return {
    turnLatencies: turns.map((t) => ({ ...t })),
    modelLatencyAverage: of('modelLatency'),
    voiceLatencyAverage: of('voiceLatency'),
    transcriberLatencyAverage: of('transcriberLatency'),
    endpointingLatencyAverage: of('endpointingLatency'),
    turnLatencyAverage: of('turnLatency'),
    numUserInterrupted: interruptions.user,
    numAssistantInterrupted: interruptions.assistant,
    simulated: sound
      ? soundStandIns(sound.scripted).filter((k) => !(sound.transcribed && k === 'transcriberLatency'))
      : measured.length
        ? [...ALWAYS_SIMULATED]
        : ['modelLatency', ...ALWAYS_SIMULATED, 'turnLatency'],
  };
}

/**
 * With sound (calls/audio) a turn's latencies come from its audio: the synthesis measured, the
 * endpointing wait its rule chose, the gap between the customer's speech and the reply measured on
 * the call's clock. The stand-ins left: no recogniser runs (the transcript is the line as written,
 * unless the developer's own transcriber heard it: `transcribed`), and a scripted reply had no model.
 */
function soundStandIns(scripted: boolean): string[] {
  return scripted ? ['modelLatency', 'transcriberLatency'] : ['transcriberLatency'];
}

/** Replies the customer waited for in a conversation: assistant lines that follow a customer line. */
export function repliesOf(messages: readonly { role: string }[]): number {
  let n = 0;
  for (let i = 1; i < messages.length; i++) if (messages[i]?.role === 'bot' && messages[i - 1]?.role === 'user') n++;
  return n;
}
