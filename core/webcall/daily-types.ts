// The daily-js types the web-call surface names (call options a caller may pass through to Daily),
// apart from the Daily transport itself, so the seam and its users never import the implementation.
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
