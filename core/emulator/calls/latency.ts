// The artifact's `performanceMetrics` in the platform's shape: the model's time to first token is
// measured on each model turn; the voice, transcriber and endpointing latencies are simulated
// (the emulator has no speech pipeline), with fixed values typical of a hosted call.
import type { Json } from '../../messages/index.js';

/** One turn's latencies in milliseconds (`TurnLatency`). */
export interface TurnLatency {
  modelLatency: number;
  voiceLatency: number;
  transcriberLatency: number;
  endpointingLatency: number;
  turnLatency: number;
}

/** Simulated milliseconds: text to speech's first audio, the transcriber's final, endpointing's wait. */
export const SIMULATED_MS = { voice: 250, transcriber: 150, endpointing: 300 } as const;

/** A turn's latencies from the model's measured time to first token. */
export function turnLatency(modelMs: number): TurnLatency {
  const model = Math.round(modelMs);
  const { voice, transcriber, endpointing } = SIMULATED_MS;
  return { modelLatency: model, voiceLatency: voice, transcriberLatency: transcriber, endpointingLatency: endpointing, turnLatency: model + voice + transcriber + endpointing };
}

const average = (xs: number[]): number => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);

/** The `PerformanceMetrics` object for a call's turns (at least one). */
export function performanceMetrics(turns: readonly TurnLatency[], interrupted = 0): Json {
  const of = (k: keyof TurnLatency): number => average(turns.map((t) => t[k]));
  return {
    turnLatencies: turns.map((t) => ({ ...t })),
    modelLatencyAverage: of('modelLatency'),
    voiceLatencyAverage: of('voiceLatency'),
    transcriberLatencyAverage: of('transcriberLatency'),
    endpointingLatencyAverage: of('endpointingLatency'),
    turnLatencyAverage: of('turnLatency'),
    numUserInterrupted: 0,
    numAssistantInterrupted: interrupted,
  };
}
