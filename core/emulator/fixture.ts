// What a test needs from a running emulator beyond its URL: a client already pointed at it, a
// reset, the deliveries made, and a wait for a call to reach a status. Added to every emulator
// `startEmulator()` returns, so one import serves a test file.
import { createClient } from '../client/index.js';
import type { Client } from '../client/index.js';
import type { CallRunner } from './calls/index.js';
import type { Delivery, EmulatorRecord } from './store/record.js';
import type { EmulatorStates, ResetResult } from './control/state.js';
import type { Rec, Store } from './store/store.js';
import { VoiceError } from '../errors.js';

/** The test helpers of an emulator. */
export interface EmulatorFixture {
  /** A REST client for this emulator (key `apiKey`, or any). */
  readonly client: Client;
  /** Back to the starting state; calls in flight are cancelled and nothing is delivered after it. */
  reset(): ResetResult;
  /** The deliveries made to your servers since the start or the last reset (optionally of one call), oldest first. */
  deliveries(callId?: string): Delivery[];
  /** Resolves with the call once it has this status (e.g. `ended`) and, when ended, its deliveries are made; rejects after `timeoutMs` (default 10 s). */
  waitForCall(callId: string, status: string, options?: { timeoutMs?: number }): Promise<Rec>;
}

/** What the helpers work on. */
export interface FixtureDeps {
  url: () => string;
  apiKey: string | undefined;
  store: Store;
  record: EmulatorRecord;
  runner: CallRunner;
  states: EmulatorStates;
}

/** Builds the helpers (the client is created on first use). */
export function fixture(deps: FixtureDeps): EmulatorFixture {
  let client: Client | undefined;
  return {
    get client() {
      return (client ??= createClient({ baseUrl: deps.url(), apiKey: deps.apiKey ?? 'any-key', maxRetries: 0 }));
    },
    reset: () => deps.states.reset(),
    deliveries: (callId) => deps.record.deliveries(callId),
    waitForCall: (callId, status, options = {}) =>
      new Promise<Rec>((resolve, reject) => {
        const ms = options.timeoutMs ?? 10_000;
        const check = (): boolean => {
          const call = deps.store.get('call', callId);
          if (!call || call.status !== status) return false;
          stop();
          clearTimeout(timer);
          // An ended call's last messages (end-of-call-report) are delivered before it resolves.
          if (status === 'ended') void deps.runner.idle().then(() => resolve(call), reject);
          else resolve(call);
          return true;
        };
        const stop = deps.record.subscribe((e) => void (e.kind === 'call.status' && e.callId === callId && check()));
        const timer = setTimeout(() => {
          stop();
          const now = deps.store.get('call', callId);
          reject(new VoiceError(`Call ${callId} did not reach "${status}" within ${ms} ms (${now ? `it is "${String(now.status)}"` : 'no such call'})`));
        }, ms);
        check();
      }),
  };
}
