// What a load run takes and what it reports.
import type { Json } from '../messages/index.js';
import type { Delivered, EmulatorRecord, Scenario, ServerTarget } from '../emulator/calls/index.js';
import type { AuthenticationPlan } from '../verify/index.js';
import type { ServerMessage } from '../messages/index.js';

/** Posts one message to a server (the emulator's `deliver` signature). */
export type PostFn = (record: EmulatorRecord, target: ServerTarget, callId: string, message: ServerMessage, signal?: AbortSignal) => Promise<Delivered>;

/** A fault the platform side can inject. */
export type Fault = 'duplicate' | 'burst' | 'slow' | 'dropped';

/** Every fault name. */
export const FAULTS: readonly Fault[] = ['duplicate', 'burst', 'slow', 'dropped'];

/** The platform's deadline for an `assistant-request` answer, in seconds. */
export const ASSISTANT_REQUEST_SECONDS = 7.5;

/** How a load run goes. */
export interface LoadOptions {
  /** The assistant the calls talk to: its `server`, `serverMessages` and `model.tools` decide what is sent where. */
  assistant: Json;
  /** The server `assistant-request` goes to for inbound calls (default: the assistant's server). */
  inboundServer?: Json;
  /** Calls to place in all (Infinity with `concurrent` and `durationSeconds`: as many as the duration holds). */
  calls: number;
  /** Keep at most this many calls running at once: the next call starts as one ends, as lines on a busy day. */
  concurrent?: number;
  /** Calls started per real second once ramped up (default: all at once). */
  rate?: number;
  /** Real seconds over which the start rate climbs from zero to `rate`. */
  rampSeconds?: number;
  /** Stop starting calls after this many real seconds. */
  durationSeconds?: number;
  /** Share of inbound calls, 0..1 (default 0.5). */
  inbound?: number;
  /** Simulated clock speed of each call (default 1: real time). */
  speed?: number;
  /** What the simulated customers say (default: the emulator's built-in conversation). */
  scenario?: Scenario;
  /** Faults to inject. */
  faults?: readonly Fault[];
  /** The webhook credential's plan when the server names one (deliveries are then signed). */
  credential?: (id: string) => AuthenticationPlan | undefined;
  /** Multiplies every deadline (tests run with small ones); default 1. */
  deadlineScale?: number;
  /** Called with the live figures about four times a second. */
  onProgress?: (live: LiveFigures) => void;
  /** Posts every message instead of the network (the Artillery export records the traffic this way). */
  post?: PostFn;
  /** Stops starting calls when aborted; running calls end as `manually-canceled`. */
  signal?: AbortSignal;
}

/** The live line's figures. */
export interface LiveFigures {
  running: number;
  done: number;
  deliveries: number;
  /** Deliveries per real second over the run so far. */
  perSecond: number;
  /** p95 answer time in ms over every delivery so far. */
  p95: number;
  misses: number;
  elapsedMs: number;
}

/** One message type's figures. */
export interface TypeFigures {
  type: string;
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Failed deliveries by HTTP status (`500`) or kind (`timeout`, `connection`, `dropped`). */
  errors: Record<string, number>;
  /** Deliveries answered after their deadline, or not at all within it. */
  misses: number;
  /** The deadline in seconds (after scaling). */
  deadlineSeconds: number;
}

/** One delivery as the report's charts need it. */
export interface Sample {
  type: string;
  /** Real ms since the run started, when it was sent. */
  at: number;
  ms: number;
  failed: boolean;
}

/** What a load run found. */
export interface LoadResult {
  calls: { started: number; ended: number; inbound: number; outbound: number; endedReasons: Record<string, number> };
  deliveries: number;
  errors: number;
  misses: number;
  /** Extra deliveries the faults made (duplicates, drop-and-retry), counted apart. */
  faults: Record<string, number>;
  elapsedMs: number;
  perSecond: number;
  types: TypeFigures[];
  /** Every delivery, for the report page. */
  samples: Sample[];
}
