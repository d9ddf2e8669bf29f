// The daily-js types the web-call surface names (call options a caller may pass through to Daily),
// apart from the Daily transport itself, so the seam and its users never import the implementation.
import type { DailyCall, DailyFactoryOptions } from '@daily-co/daily-js';

/** The part of the daily-js module the transport uses. */
export interface DailyModule {
  default: { createCallObject(options?: DailyFactoryOptions): DailyCall };
}

/** Loads daily-js: by default the installed package, or any URL or copy you choose. */
export type DailyLoader = () => Promise<DailyModule>;

export type {
  DailyAdvancedConfig,
  DailyCall,
  DailyEventObjectNetworkConnectionEvent,
  DailyEventObjectNetworkQualityEvent,
  DailyEventObjectNoPayload,
  DailyEventObjectRecordingError,
  DailyEventObjectRecordingStarted,
  DailyEventObjectRecordingStopped,
  DailyFactoryOptions,
  DailyParticipant,
} from '@daily-co/daily-js';
