// A call's log lines: the call engine writes them as the call runs, the API's call actions when
// they create a call, and `GET /call/{id}/call-logs` and `/logs` read them back.
import type { Store } from '../store/store.js';

/** Stores one log line about a call (`time` is the simulated clock's for running calls). */
export function logCall(store: Store, call: Record<string, unknown>, text: string, time = new Date().toISOString(), level = 'INFO'): void {
  store.insert('log', {
    time,
    type: 'Call',
    level,
    callId: call.id,
    assistantId: call.assistantId,
    phoneNumberId: call.phoneNumberId,
    squadId: call.squadId,
    customerId: call.customerId,
    log: text,
  });
}
