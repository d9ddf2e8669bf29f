// `voice load`'s engine: places calls on the schedule asked for (rate, ramp, duration, a burst),
// runs each with the emulator's call engine against the developer's server, and collects every
// delivery's answer time, failure and deadline miss.
import { deepFreeze } from '../messages/index.js';
import type { ConversationMessage, Json } from '../messages/index.js';
import { CallSession, DEFAULT_SCENARIO, EmulatorRecord, ensureDefaultOrg, SimClock, Store } from '../emulator/calls/index.js';
import type { NewEvent, RecordEvent } from '../emulator/calls/index.js';
import { inbound, outbound } from './calls.js';
import { makePoster } from './post.js';
import { LoadStats } from './stats.js';
import type { LoadOptions, LoadResult } from './types.js';
import { LoadOptionsError } from './errors.js';

export { LoadOptionsError };

// The emulator's record keeps a call's story for its inspector; a load run keeps figures instead.
// Nothing reads what `add` returns on a call's path, so the event goes back as it came.
class NoRecord extends EmulatorRecord {
  override add(event: NewEvent): RecordEvent {
    return event as RecordEvent;
  }
}

// A load call's everyday log lines would fill the run's store and are never read: its figures are
// the report. Errors are still logged.
class LoadSession extends CallSession {
  override log(text: string, level = 'INFO'): void {
    if (level === 'ERROR') super.log(text, level);
  }

  // Frozen once said: every later message carries the conversation so far, and frozen parts are
  // written to JSON once.
  override push(message: ConversationMessage): void {
    super.push(deepFreeze(message));
  }
}

// Deliveries start at most this many per event-loop turn: a thousand calls opening their first
// connections in one turn would overflow a server's listen backlog (511 by default in Node), a
// flood of our making the platform's own spread-out traffic never causes.
const PER_TURN = 16;

/** A pacer: resolves each waiter in its turn, PER_TURN per event-loop turn. */
function pacer(): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let pumping = false;
  const pump = (): void => {
    for (let i = 0; i < PER_TURN && waiting.length; i++) (waiting.shift() as () => void)();
    if (waiting.length) setImmediate(pump);
    else pumping = false;
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!pumping) {
        pumping = true;
        setImmediate(pump);
      }
    });
}

/**
 * A load call's clock: a pause shorter than a real millisecond takes one turn of the event loop
 * instead of a timer, which fires no sooner than a millisecond. At `--speed 10000` a simulated
 * second is 0.1 ms: with timers, each of a call's pauses took ten times what the speed asks, and
 * the calls spent most of a run waiting on them instead of talking to the server.
 */
export class LoadClock extends SimClock {
  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted || ms / this.speed >= 1) return super.sleep(ms, signal);
    const t0 = performance.now();
    return new Promise((resolve) =>
      setImmediate(() => {
        this.at += signal?.aborted ? Math.min(ms, (performance.now() - t0) * this.speed) : ms;
        resolve();
      }),
    );
  }
}

/** Share of the calls a `burst` fault starts at one instant. */
const BURST_SHARE = 0.2;

/** Real ms after the start at which each call starts: `rate` a second after a linear ramp, cut at `durationSeconds`. */
export function startTimes(o: Pick<LoadOptions, 'calls' | 'rate' | 'rampSeconds' | 'durationSeconds' | 'faults'>): number[] {
  const rate = o.rate;
  const ramp = o.rampSeconds ?? 0;
  const times: number[] = [];
  for (let i = 0; i < o.calls; i++) {
    let t = 0;
    if (rate !== undefined) {
      const rampCalls = (rate * ramp) / 2;
      t = i < rampCalls ? Math.sqrt((2 * ramp * i) / rate) : ramp + (i - rampCalls) / rate;
    }
    if (o.durationSeconds !== undefined && t >= o.durationSeconds) break;
    times.push(t * 1000);
  }
  if (o.faults?.includes('burst') && times.length > 1) {
    const n = Math.max(1, Math.round(times.length * BURST_SHARE));
    const at = times[Math.floor((times.length - n) / 2)] as number;
    // The burst's calls leave the schedule's tail and all start at the middle.
    for (let i = times.length - n; i < times.length; i++) times[i] = at;
    times.sort((a, b) => a - b);
  }
  return times;
}

/** Checks options a user typed; throws LoadOptionsError naming the one that is wrong. */
export function checkOptions(o: LoadOptions): void {
  const positive = (v: number | undefined, name: string, zero = false): void => {
    if (v !== undefined && !(Number.isFinite(v) && (zero ? v >= 0 : v > 0))) throw new LoadOptionsError(`${name} must be a number above ${zero ? 'or equal to ' : ''}0, got ${v}`);
  };
  const unlimited = o.calls === Infinity && o.concurrent !== undefined && o.durationSeconds !== undefined;
  if (!unlimited && (!Number.isInteger(o.calls) || o.calls < 1)) throw new LoadOptionsError(`calls must be a whole number of 1 or more, got ${o.calls}`);
  if (o.concurrent !== undefined && !(Number.isInteger(o.concurrent) && o.concurrent >= 1)) throw new LoadOptionsError(`concurrent must be a whole number of 1 or more, got ${o.concurrent}`);
  if (o.concurrent !== undefined && o.faults?.includes('burst'))
    throw new LoadOptionsError('a burst starts a fifth of the calls at one instant, and concurrent caps the calls at once: use one or the other');
  positive(o.rate, 'rate');
  positive(o.rampSeconds, 'ramp', true);
  positive(o.durationSeconds, 'duration');
  positive(o.speed, 'speed');
  positive(o.deadlineScale, 'deadline scale');
  if (o.inbound !== undefined && !(o.inbound >= 0 && o.inbound <= 1)) throw new LoadOptionsError(`inbound must be a share between 0 and 1, got ${o.inbound}`);
  if (o.rampSeconds && o.rate === undefined) throw new LoadOptionsError('a ramp needs a rate: the ramp climbs to it');
  const server = o.assistant.server as Json | undefined;
  if (typeof server?.url !== 'string' || !/^https?:\/\//.test(server.url)) throw new LoadOptionsError('the assistant needs a server URL (http:// or https://) to send its messages to');
}

const sleepUntil = (t0: number, ms: number): Promise<void> => {
  const left = t0 + ms - performance.now();
  return left > 0 ? new Promise((r) => setTimeout(r, left)) : Promise.resolve();
};

/** Runs a load test to the end (every call ended and every delivery answered or failed). */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  checkOptions(o);
  const store = new Store();
  ensureDefaultOrg(store);
  // Frozen copies (the caller's objects stay theirs): every message of the run carries them, and
  // frozen parts are written to JSON once.
  const assistant = deepFreeze(store.insert('assistant', structuredClone(o.assistant)));
  const phoneNumber = deepFreeze(store.insert('phone-number', structuredClone({ provider: 'vapi', name: 'voice load', server: o.inboundServer ?? o.assistant.server })));
  // A server naming a webhook credential gets signed deliveries: the emulator signs from the stored credential.
  for (const owner of [assistant, phoneNumber, ...(((assistant.model as Json | undefined)?.tools as Json[] | undefined) ?? [])]) {
    const id = (owner.server as Json | undefined)?.credentialId;
    if (typeof id !== 'string' || store.get('credential', id)) continue;
    const plan = o.credential?.(id);
    if (plan) store.insert('credential', { provider: 'webhook', authenticationPlan: plan }, { id });
  }
  const stats = new LoadStats();
  const extra: Record<string, number> = {};
  const setup = { stats, t0: performance.now(), scale: o.deadlineScale ?? 1, faults: new Set(o.faults ?? []), extra };
  const poster = makePoster(setup);
  const t0 = (setup.t0 = performance.now());
  const deps = { store, record: new NoRecord(), baseUrl: () => 'http://127.0.0.1', changed: () => undefined, post: o.post ?? poster.post, pace: pacer() };
  const scenario = o.scenario ?? DEFAULT_SCENARIO;
  const share = o.inbound ?? 0.5;
  const result: LoadResult['calls'] = { started: 0, ended: 0, inbound: 0, outbound: 0, endedReasons: {} };
  const running = new Set<CallSession>();
  // Resolves when the next call ends: a line frees up, or the run drains.
  let wake: (() => void) | undefined;
  const nextEnd = (): Promise<void> => new Promise((resolve) => (wake = resolve));
  const lines = o.concurrent ?? Infinity;
  // Held lines without a rate: each call starts as soon as one is free, until the count or the duration.
  const times = o.concurrent !== undefined && o.rate === undefined ? undefined : startTimes(o);
  const pastDuration = (): boolean => o.durationSeconds !== undefined && performance.now() - t0 >= o.durationSeconds * 1000;
  const live = (): void =>
    o.onProgress?.({
      running: running.size,
      done: result.ended,
      deliveries: stats.deliveries,
      perSecond: stats.deliveries / Math.max(0.001, (performance.now() - t0) / 1000),
      p95: stats.recentP95(),
      misses: stats.misses,
      elapsedMs: performance.now() - t0,
    });
  const ticker = o.onProgress ? setInterval(live, 250) : undefined;
  const stop = (): void => {
    for (const s of running) s.finish('manually-canceled');
  };
  o.signal?.addEventListener('abort', stop, { once: true });
  try {
    for (let i = 0; times ? i < times.length : i < o.calls; i++) {
      if (times) await sleepUntil(t0, times[i] as number);
      while (running.size >= lines && !o.signal?.aborted) await nextEnd();
      if (o.signal?.aborted || (o.concurrent !== undefined && pastDuration())) break;
      const isInbound = Math.floor((i + 1) * share) > Math.floor(i * share);
      const call = store.insert('call', {
        type: isInbound ? 'inboundPhoneCall' : 'outboundPhoneCall',
        status: 'queued',
        phoneCallProvider: 'vapi',
        phoneCallTransport: 'pstn',
        phoneNumberId: phoneNumber.id,
        customer: deepFreeze({ number: `+1555${String(1_000_000 + i).slice(-7)}` }),
        ...(isInbound ? {} : { assistantId: assistant.id }),
      });
      const session = new LoadSession({ ...deps, clock: new LoadClock(o.speed ?? 1) }, call);
      result.started++;
      result[isInbound ? 'inbound' : 'outbound']++;
      running.add(session);
      void (isInbound ? inbound(session, assistant, scenario) : outbound(session, assistant, scenario))
        .catch((err: unknown) => {
          session.log(`Load error: ${(err as Error).message}`, 'ERROR');
          session.finish('call.in-progress.error-vapifault-worker-died');
        })
        .then(() => session.drained())
        .then(() => {
          running.delete(session);
          result.ended++;
          const reason = String(session.call.endedReason ?? 'unknown');
          result.endedReasons[reason] = (result.endedReasons[reason] ?? 0) + 1;
          // An ended call's figures are counted: a long run's memory stays flat.
          store.remove('call', session.call.id as string);
          const ended = wake;
          wake = undefined;
          ended?.();
        });
    }
    while (running.size) await nextEnd();
  } finally {
    if (ticker) clearInterval(ticker);
    o.signal?.removeEventListener('abort', stop);
  }
  live();
  const elapsedMs = performance.now() - t0;
  return {
    calls: result,
    deliveries: stats.deliveries,
    errors: stats.errors,
    misses: stats.misses,
    faults: extra,
    elapsedMs,
    perSecond: stats.deliveries / Math.max(0.001, elapsedMs / 1000),
    types: stats.table(),
    samples: stats.samples,
  };
}
