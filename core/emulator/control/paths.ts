// The emulator's own endpoints (beside the platform's API), written once: the emulator routes
// them, and the one client (client.ts) used by the CLI and the inspector requests them.

/** Every `/__voice/...` path of the emulator. */
export const CONTROL_PATHS = {
  health: '/__voice/health',
  info: '/__voice/info',
  speed: '/__voice/speed',
  reset: '/__voice/reset',
  snapshots: '/__voice/snapshots',
  state: '/__voice/state',
  applied: '/__voice/applied',
  ring: '/__voice/ring',
  deliveries: '/__voice/deliveries',
  events: '/__voice/events',
  recording: '/__voice/recording/',
  requests: '/__voice/requests/',
  calls: '/__voice/calls/',
  inspector: '/__voice/inspector/',
} as const;

const part = encodeURIComponent;

/** `/__voice/snapshots/NAME`: save a snapshot. */
export const snapshotPath = (name: string): string => `${CONTROL_PATHS.snapshots}/${part(name)}`;
/** `/__voice/snapshots/NAME/restore`: restore one. */
export const restorePath = (name: string): string => `${snapshotPath(name)}/restore`;
/** `/__voice/deliveries/ID`: one delivery with its request and answer. */
export const deliveryPath = (id: string): string => `${CONTROL_PATHS.deliveries}/${part(id)}`;
/** `/__voice/deliveries/ID/replay`: send it again. */
export const replayPath = (id: string): string => `${deliveryPath(id)}/replay`;
/** `/__voice/requests/SEQ`: one REST request the emulator answered. */
export const requestPath = (seq: string | number): string => `${CONTROL_PATHS.requests}${part(String(seq))}`;
/** `/__voice/calls/ID/end`: end a call as the customer or the assistant would. */
export const endCallPath = (id: string): string => `${CONTROL_PATHS.calls}${part(id)}/end`;
/** `/__voice/calls/ID/say`: speak a line as the call's customer. */
export const sayPath = (id: string): string => `${CONTROL_PATHS.calls}${part(id)}/say`;
/** `/__voice/calls/ID/timeline`: a call's audio timeline (`{ timeline: null }` for a call without sound). */
export const timelinePath = (id: string): string => `${CONTROL_PATHS.calls}${part(id)}/timeline`;
/** `/__voice/inspector/#/calls/ID`: a call in the inspector page. */
export const inspectorCallPath = (id: string): string => `${CONTROL_PATHS.inspector}#/calls/${part(id)}`;
/** `/__voice/recording/ID.wav`: a call's recording. */
export const recordingPath = (id: string): string => `${CONTROL_PATHS.recording}${part(id)}.wav`;
/** `/__voice/events?...`: the live record as server-sent events. */
export const eventsPath = (query: Record<string, string | number | boolean | undefined> = {}): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const text = q.toString();
  return text ? `${CONTROL_PATHS.events}?${text}` : CONTROL_PATHS.events;
};
