// The local platform emulator: the whole REST API of the platform on loopback, generated
// from the catalogue, with an in-memory store and optional file persistence.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { CallRunner } from './calls/index.js';
import type { Scenario, WebCallEngine } from './calls/index.js';
import { createRunHost } from './actions/runs.js';
import type { RunHost } from './actions/runs.js';
import { voiceRoutes } from './control/routes.js';
import type { Env } from './http/context.js';
import { CorsPolicy } from './http/cors.js';
import { EmulatorRecord } from './store/record.js';
import type { Delivery } from './store/record.js';
import type { DataFileWriter } from './store/persist.js';
import { lockDataFile } from './store/persist.js';
import { openStore } from './open-store.js';
import { authorize, createListener } from './http/server.js';
import type { RequestBodyText, RequestLog } from './http/server.js';
import { acceptWebCalls } from './http/webcall-socket.js';
import type { Snapshot, Store } from './store/store.js';
import { EmulatorStates } from './control/state.js';
import { stateRoutes } from './control/state-routes.js';
import { CampaignEngine } from './campaigns/engine.js';
import { fixture } from './fixture.js';
import { createModelGateway } from '../model/index.js';
import type { ModelConfig, ModelGateway } from '../model/index.js';
import type { EmulatorFixture } from './fixture.js';
import { preloadPoster } from '../messages/post.js';

export { CorsPolicy, LOOPBACK_ORIGINS, normaliseOrigin } from './http/cors.js';
export { DataFileError, DataFileInUseError } from './store/persist.js';
export { VoiceError } from '../errors.js';
export type { RequestLog } from './http/server.js';
export { SEED } from './resources/seed.js';
export type { BrowserCall, BrowserCustomer, WebCallEngine } from './calls/index.js';
export { EmulatorRecord } from './store/record.js';
export type { Delivery, RecordEvent } from './store/record.js';
export { MAGIC_NUMBERS, loadScenario, parseScenario, ScenarioError, DEFAULT_SCENARIO } from './calls/index.js';
export type { Scenario, ScenarioTurn } from './calls/index.js';
export { VOICE_PATHS } from './control/routes.js';
export { EmulatorStates } from './control/state.js';
export type { AppliedIds, ResetResult } from './control/state.js';
export { STATE_PATHS } from './control/state-routes.js';
export type { EmulatorFixture } from './fixture.js';
export { loadDataFile } from './store/persist.js';
export type { Snapshot } from './store/store.js';
export { INSPECTOR_PATH } from './control/inspector.js';
export { maskSecrets, maskBody, MASK } from './store/mask.js';
export type { ModelConfig } from '../model/index.js';

/** How to start an emulator. */
export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; loopback unless told otherwise. */
  host?: string;
  /** JSON file the store is loaded from and saved to after every change. */
  dataFile?: string;
  /** When set, secured requests must send exactly this bearer key; otherwise any bearer key works. */
  apiKey?: string;
  /** Add the sample objects from core/emulator/resources/data/seed.json. */
  seed?: boolean;
  /**
   * Base of web-call room URLs, e.g. `https://vapi.daily.co`. Unset: the emulator's own address,
   * where `voice/webcall` joins the call over a WebSocket and the browser is the customer.
   */
  webCallUrlBase?: string;
  /** Runs the web calls browsers join (the emulator's call engine unless a test gives another). */
  webCallEngine?: WebCallEngine;
  /** Called once per finished request (used by `voice dev` to print a request log). */
  log?: (line: RequestLog) => void;
  /** Web pages allowed besides loopback origins (`--cors-origin`): `https://app.example`, `null`, or `*`. */
  corsOrigins?: readonly string[];
  /** Answers requests no catalogue route matches; return true when it did. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
  /** Simulated clock speed for calls (default 1: a default call lasts tens of seconds). */
  speed?: number;
  /** What simulated customers say (default: the built-in conversation). */
  scenario?: Scenario;
  /** Ended calls kept with their logs (default 1,000); the oldest leave memory and the data file beyond it. */
  keepEndedCalls?: number;
  /** Called once per delivery to a developer's server (used by `voice dev` for its stderr lines). */
  onDelivery?: (delivery: Delivery) => void;
  /** Start from this snapshot (`voice dev --import`; a data file as `--data` writes or `export()` returns) instead of the data file's contents. */
  initial?: Snapshot;
  /** Folder of the built inspector page, served at `/__voice/inspector/` (files read only when asked for). */
  inspectorDir?: string;
  /**
   * The model endpoint for every assistant whose provider is not custom-llm (`url`, `apiKey`,
   * `model`), or a cassette to record to or replay from. Unset: custom-llm assistants with a
   * `model.url` still call it; other conversations are scripted and say so.
   */
  model?: ModelConfig;
  /** Simulation run items played at once (the org's concurrency; default 10). */
  simulationConcurrency?: number;
  /** Model requests the eval and simulation runs have in flight at once (unset: bounded only by `simulationConcurrency`). */
  runModelConcurrency?: number;
  /**
   * Load the delivery client right after start instead of at the first call's first delivery
   * (`voice dev`): the load holds the event loop for tens of milliseconds, which then stalls the
   * requests and calls of that moment. Off for short-lived emulators (tests) that may never deliver.
   */
  preload?: boolean;
  /**
   * Folder standing in for the org's storage buckets the emulator cannot reach (AWS S3, Azure): a
   * call's artifacts land in `<folder>/<bucket>/...` (buckets with an S3-compatible URL are written there).
   */
  storageDir?: string;
  /**
   * Sound for phone calls and web calls whose page streams audio (`voice dev`, unless `--no-audio`): both sides synthesized with
   * voice-agent-audio, loaded when the first call needs it, and the platform's timing rules on that
   * audio; `false` says every call runs on the text timeline because sound was turned off. Unset:
   * the text timeline, with no note (programs and tests that never asked for sound).
   */
  audio?: boolean;
  /** Where the emulator's own warnings go (the data file cannot be written, and when it can again); default stderr. */
  warn?: (line: string) => void;
}

/** What the start found in the data file: how much it loaded, and the half-written temp files a killed run left (removed). */
export interface DataFileStart {
  file: string;
  /** Objects loaded, all collections together (0 for a new file). */
  objects: number;
  /** Calls among them. */
  calls: number;
  /** Temp files of a write a killed emulator never finished; the file itself is the last complete state. */
  removedTempFiles: number;
}

/** A running emulator, with the helpers a test needs (`client`, `reset()`, `deliveries()`, `waitForCall()`). */
export interface Emulator extends EmulatorFixture {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  host: string;
  /** The record of calls, their events, deliveries and requests (with its live subscription). */
  record: EmulatorRecord;
  /** The running calls: `idle()` resolves when every call has ended and its deliveries are made. */
  calls: CallRunner;
  /** The starting state a reset returns to, named snapshots, and the export. */
  states: EmulatorStates;
  /** What the start found in the data file (`dataFile` only). */
  dataFile?: DataFileStart;
  /** The door to assistants' models (`describe()` says which endpoint or cassette). */
  model: ModelGateway;
  /** Eval and simulation runs: `idle()` resolves when every run started so far has finished. */
  runs: RunHost;
  /** The campaigns: `finished(id)` resolves once a campaign has stopped, its calls have ended and its messages are delivered. */
  campaigns: CampaignEngine;
  /** Stops listening, drops open connections and waits for pending data-file writes. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ok();
    });
  });
}

/** Starts an emulator; rejects with a DataFileError for an unusable data file (DataFileInUseError when another emulator holds it), or the listen error (e.g. EADDRINUSE). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const file = options.dataFile ? resolve(options.dataFile) : undefined;
  const cors = new CorsPolicy({ origins: options.corsOrigins, host });
  // Held until close(): two emulators writing one file would silently undo each other's changes.
  const warn = options.warn ?? ((line: string) => void process.stderr.write(line));
  const held = file ? await lockDataFile(file, (err) => warn(`voice emulator: lost the lock on ${file} (${err.message}); another process may now write it.\n`)) : undefined;
  const lock = held?.lock;
  const env: Env = { url: '', webCallUrlBase: (options.webCallUrlBase ?? '').replace(/\/+$/, '') };
  let server: Server;
  let writer: DataFileWriter | undefined;
  let calls: CallRunner;
  let campaigns: CampaignEngine;
  let closeWebCalls: () => void;
  let states: EmulatorStates;
  let storeRef: Store;
  let loaded = 0;
  let model: ModelGateway;
  const record = new EmulatorRecord();
  try {
    const opened = await openStore(file, Boolean(options.seed), options.initial, warn);
    loaded = opened.loaded;
    const { store } = opened;
    storeRef = store;
    writer = opened.writer;
    model = createModelGateway(options.model ?? {}, { credential: (id) => store.get('credential', id), credentials: () => store.all('credential') });
    env.model = model;
    env.record = record;
    // The writer reports trouble itself, once, and retries until the file is written.
    const persist = (): void => void writer?.flush().catch(() => undefined);
    // Call progress is written within a second (no answer waits for it); API changes before their answer.
    calls = new CallRunner(
      { store, record, baseUrl: () => env.url, changed: () => writer?.soon(), model, ...(options.storageDir ? { storageDir: resolve(options.storageDir) } : {}) },
      { speed: options.speed, scenario: options.scenario, keepEndedCalls: options.keepEndedCalls, ...(options.audio !== undefined ? { audio: options.audio } : {}) },
    );
    env.calls = calls;
    const runnerRef = calls;
    campaigns = new CampaignEngine({ store, record, startCall: (call) => runnerRef.start(call), clock: () => runnerRef.clock(), changed: () => writer?.soon() });
    env.campaigns = campaigns;
    env.runs = createRunHost({ store, record, gateway: model, calls, concurrency: options.simulationConcurrency, modelConcurrency: options.runModelConcurrency, changed: () => writer?.soon() });
    if (calls.settleInterrupted() && writer) await writer.flush();
    campaigns.resume();
    if (options.onDelivery) {
      const onDelivery = options.onDelivery;
      record.subscribe((e) => e.kind === 'delivery' && onDelivery(e.delivery));
    }
    const mayAct = (h: string | undefined): void => void (options.apiKey !== undefined && authorize(h, options.apiKey));
    const own = voiceRoutes({ store, record, runner: calls, authorize: mayAct, inspectorDir: options.inspectorDir, apiKeyRequired: options.apiKey !== undefined, model: model.configured({}) });
    const campaignRef = campaigns;
    states = new EmulatorStates({ store, runner: { cancelAll: () => (campaignRef.cancelAll(), runnerRef.cancelAll()) }, record, persist, loaded: () => campaignRef.resume() });
    const runner = calls;
    const stateRoute = stateRoutes({ states, activeCalls: () => runner.active, authorize: mayAct });
    const fallback = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> =>
      stateRoute(req, res, (req.url ?? '/').split('?')[0] as string) || (await own(req, res)) || (options.fallback ? options.fallback(req, res) : false);
    const log = (line: RequestLog, bodies: RequestBodyText): void => {
      record.addRequest(line, bodies);
      // The inspector's own requests (its files, its reads) are recorded but not printed.
      if (!line.inspector) options.log?.(line);
    };
    server = createServer({ keepAliveTimeout: 65_000 }, createListener({ store, env, writer, apiKey: options.apiKey, log, cors, fallback }));
    closeWebCalls = acceptWebCalls(server, store, options.webCallEngine ?? ((call, browser) => runner.joinWeb(call, browser)), (req) => cors.refusal(req));
    await listen(server, options.port ?? 0, host);
  } catch (err) {
    await lock?.release();
    throw err;
  }
  // A failing socket after start must never take the process down.
  server.on('error', (err) => process.stderr.write(`voice emulator: ${err.message}\n`));
  const port = (server.address() as AddressInfo).port;
  env.url = `http://${urlHost(host)}:${port}`;
  if (options.preload) setImmediate(() => void preloadPoster().catch(() => undefined));
  let closing: Promise<void> | undefined;
  const helpers = fixture({ url: () => env.url, apiKey: options.apiKey, store: storeRef, record, runner: calls, states });
  return {
    get client() {
      return helpers.client;
    },
    reset: helpers.reset,
    deliveries: helpers.deliveries,
    waitForCall: helpers.waitForCall,
    url: env.url,
    port,
    host,
    record,
    calls,
    states,
    ...(file ? { dataFile: { file, objects: loaded, calls: storeRef.all('call').length, removedTempFiles: held?.removedTempFiles ?? 0 } } : {}),
    model,
    runs: env.runs as RunHost,
    campaigns,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        campaigns.cancelAll();
        calls.close();
        closeWebCalls();
        server.close(() => done());
        server.closeAllConnections();
      })
        .then(() => writer?.idle())
        .finally(() => {
          writer?.stop();
          return lock?.release();
        })),
  };
}
