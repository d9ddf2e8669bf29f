// The emulator as the host of evals and simulations: its store's assistants, squads, tools and
// structured outputs, the developer's tool servers (a `tool-calls` delivery, recorded like a
// call's), hook webhooks, the model gateway and the org's simulation concurrency.
import { buildServerMessage } from '../../messages/index.js';
import type { Json } from '../../messages/index.js';
import { postServerMessage } from '../../messages/post.js';
import type { ModelGateway, ModelToolCall } from '../../model/index.js';
import { Limiter } from '../../evals/limit.js';
import type { World } from '../../evals/types.js';
import type { TurnTiming } from '../../evals/budgets.js';
import { assistantFrom, chooseServer, deliver, orgOf, serverOf, squadFrom, toolsOf, withCredential } from '../calls/index.js';
import type { CallRunner } from '../calls/index.js';
import type { EmulatorRecord } from '../store/record.js';
import { voiceCalls } from './voice-runs.js';
import type { Store } from '../store/store.js';

/** The platform's default simulation concurrency of an org. */
export const DEFAULT_SIMULATION_CONCURRENCY = 10;

/** What run handlers use (on `Env.runs`). */
export interface RunHost {
  world: World;
  /** The org's simulation concurrency: items beyond it wait queued. */
  limiter: Limiter;
  /** Asks for the data file to be written and wakes `nextChange` (a run changed in the background). */
  changed(): void;
  /** Resolves at the next change of any run (an in-process `voice test` waits on it instead of polling). */
  nextChange(): Promise<void>;
  /** Keeps a background run so `idle()` can wait for it. */
  track(work: Promise<unknown>): void;
  /** Resolves when every background run has finished. */
  idle(): Promise<void>;
  /** The measured time to first token of each judged turn of an ended eval run (an in-process `voice test` reads it; the published run has no field for it). */
  turnTimings(runId: string): TurnTiming[] | undefined;
  /** Keeps an eval run's turn timings (the latest runs only). */
  keepTimings(runId: string, timings: TurnTiming[]): void;
}

/** Eval runs whose turn timings are kept. */
const KEPT_TIMINGS = 1000;

function resultOf(answer: Json | undefined, id: string): { result?: string; error?: string } {
  const results = Array.isArray(answer?.results) ? (answer.results as Json[]) : [];
  const mine = results.find((r) => r && r.toolCallId === id) ?? (results.length === 1 ? results[0] : undefined);
  if (!mine) return { error: 'no result for this toolCallId in the answer' };
  if (typeof mine.error === 'string') return { error: mine.error };
  if (mine.result === undefined) return { error: 'the result has no "result" field' };
  return { result: typeof mine.result === 'string' ? mine.result : JSON.stringify(mine.result) };
}

/** Options of `createRunHost`. */
export interface RunHostOptions {
  store: Store;
  record: EmulatorRecord;
  gateway: ModelGateway | undefined;
  concurrency?: number;
  /** The call engine voice-mode simulations play on (absent: simulations run as chat only). */
  calls?: CallRunner;
  /** Model requests the runs have in flight at once (unset: bounded only by the items played at once). */
  modelConcurrency?: number;
  changed(): void;
}

/** The gateway with at most `size` steps in flight, first come first served. */
function gated(gateway: ModelGateway | undefined, size: number | undefined): ModelGateway | undefined {
  if (!gateway || !size) return gateway;
  const limiter = new Limiter(size);
  // Only the exchange itself holds a place: the next request is built while others are in flight.
  return { configured: (a) => gateway.configured(a), describe: () => gateway.describe(), step: (input) => gateway.step({ ...input, slot: (exchange) => limiter.run(exchange) }) };
}

/** Makes the host of the emulator's runs. */
export function createRunHost(options: RunHostOptions): RunHost {
  const { store, record } = options;
  const pending = new Set<Promise<unknown>>();
  const timings = new Map<string, TurnTiming[]>();
  let wake: { promise: Promise<void>; resolve(): void } | undefined;
  const world: World = {
    gateway: gated(options.gateway, options.modelConcurrency),
    assistant: (ref, overrides) => assistantFrom(store, ref, overrides),
    squad: (ref) => squadFrom(store, ref),
    tools: (assistant) => toolsOf(store, assistant),
    structuredOutput: (id) => store.get('structured-output', id),
    async callTool(call: ModelToolCall, tool: Json | undefined, assistant: Json) {
      const target = withCredential(chooseServer('tool-calls', { ...(tool ? { tool } : {}), assistant, org: orgOf(store) }), (id) => store.get('credential', id));
      if (!target) return { error: `no server to send ${call.name} to (set the tool's, the assistant's or the org's server, or mock it in the scenario's toolMocks)` };
      const data = { toolCalls: [{ call: { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }, ...(tool ? { tool } : {}) }] };
      const message = buildServerMessage('tool-calls', { assistant, data } as never);
      const delivered = await deliver(record, target, `simulation-${call.id}`, message);
      if (delivered.delivery.error) return { error: delivered.delivery.error };
      return resultOf(delivered.answer, call.id);
    },
    async postHook(server: Json, body: Json) {
      const target = serverOf({ server });
      if (!target) return { url: '', error: 'the hook has no server url' };
      const res = await postServerMessage(target.url, JSON.stringify(body), { headers: target.headers, timeoutMs: target.timeoutSeconds * 1000 });
      if (res.status === undefined) return { url: target.url, error: `could not post: ${res.reason ?? res.failure}` };
      const ok = res.status >= 200 && res.status < 300;
      return { url: target.url, status: res.status, ...(ok ? {} : { error: `HTTP ${res.status}` }) };
    },
    now: () => Date.now(),
  };
  const gateway = world.gateway;
  if (options.calls) world.voiceCall = voiceCalls(store, options.calls, gateway);
  return {
    world,
    limiter: new Limiter(options.concurrency ?? DEFAULT_SIMULATION_CONCURRENCY),
    changed() {
      options.changed();
      wake?.resolve();
      wake = undefined;
    },
    nextChange() {
      if (!wake) {
        let resolve = (): void => undefined;
        const promise = new Promise<void>((ok) => (resolve = ok));
        wake = { promise, resolve };
      }
      return wake.promise;
    },
    track(work) {
      const kept = work.catch((e: unknown) => process.stderr.write(`voice emulator: a run failed unexpectedly: ${(e as Error).stack ?? String(e)}\n`)).finally(() => pending.delete(kept));
      pending.add(kept);
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    turnTimings: (runId) => timings.get(runId),
    keepTimings(runId, list) {
      timings.set(runId, list);
      if (timings.size > KEPT_TIMINGS) timings.delete(timings.keys().next().value as string);
    },
  };
}
