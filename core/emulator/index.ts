// The local platform emulator: the whole REST API of the platform on loopback, generated
// from the catalogue, with an in-memory store and optional file persistence.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { ensureDefaultOrg } from './actions/org.js';
import { CallRunner } from './calls/runner.js';
import type { Scenario } from './calls/scenario.js';
import { voiceRoutes } from './calls/routes.js';
import type { Env } from './context.js';
import { CorsPolicy } from './cors.js';
import { EmulatorRecord } from './record.js';
import type { Delivery } from './record.js';
import { DataFileError, DataFileWriter, loadDataFile, lockDataFile } from './persist.js';
import { seedStore } from './seed.js';
import { authorize, createListener } from './server.js';
import type { RequestBodyText, RequestLog } from './server.js';
import { Store } from './store.js';

export { CorsPolicy, LOOPBACK_ORIGINS, normaliseOrigin } from './cors.js';
export { DataFileError, DataFileInUseError } from './persist.js';
export type { RequestLog } from './server.js';
export { SEED } from './seed.js';
export { EmulatorRecord } from './record.js';
export type { Delivery, RecordEvent } from './record.js';
export { MAGIC_NUMBERS } from './calls/magic.js';
export { loadScenario, parseScenario, ScenarioError, DEFAULT_SCENARIO } from './calls/scenario.js';
export type { Scenario, ScenarioTurn } from './calls/scenario.js';
export { VOICE_PATHS } from './calls/routes.js';
export { INSPECTOR_PATH } from './inspector.js';
export { maskSecrets, maskBody, MASK } from './mask.js';

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
  /** Add the sample objects from fixtures/seed.json. */
  seed?: boolean;
  /** Base of web-call room URLs (default `https://vapi.daily.co`). */
  webCallUrlBase?: string;
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
  /** Called once per delivery to a developer's server (used by `voice dev` for its stderr lines). */
  onDelivery?: (delivery: Delivery) => void;
  /** Folder of the built inspector page, served at `/__voice/inspector/` (files read only when asked for). */
  inspectorDir?: string;
}

/** A running emulator. */
export interface Emulator {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  host: string;
  /** The record of calls, their events, deliveries and requests (with its live subscription). */
  record: EmulatorRecord;
  /** The running calls: `idle()` resolves when every call has ended and its deliveries are made. */
  calls: CallRunner;
  /** Stops listening, drops open connections and waits for pending data-file writes. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

async function openStore(file: string | undefined, seed: boolean): Promise<{ store: Store; writer: DataFileWriter | undefined }> {
  const snapshot = file ? await loadDataFile(file) : undefined;
  const store = new Store(snapshot);
  let changed = ensureDefaultOrg(store);
  if (seed) changed = seedStore(store) || changed;
  const writer = file ? new DataFileWriter(file, () => store.snapshot()) : undefined;
  // Write at once when new, so an unwritable path fails at start rather than on the first change.
  if (writer && (changed || !snapshot)) {
    await writer.flush().catch((err: unknown) => {
      throw new DataFileError(file as string, `cannot be written (${(err as Error).message})`);
    });
  }
  return { store, writer };
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
  const lock = file ? await lockDataFile(file, (err) => process.stderr.write(`voice emulator: lost the lock on ${file} (${err.message}); another process may now write it.\n`)) : undefined;
  const env: Env = { url: '', webCallUrlBase: (options.webCallUrlBase ?? 'https://vapi.daily.co').replace(/\/+$/, '') };
  let server: Server;
  let writer: DataFileWriter | undefined;
  let calls: CallRunner;
  const record = new EmulatorRecord();
  try {
    const opened = await openStore(file, Boolean(options.seed));
    const { store } = opened;
    writer = opened.writer;
    const persist = (): void => void writer?.flush().catch((err: unknown) => process.stderr.write(`voice emulator: could not write the data file: ${(err as Error).message}\n`));
    calls = new CallRunner({ store, record, baseUrl: () => env.url, changed: persist }, { speed: options.speed, scenario: options.scenario });
    env.calls = calls;
    if (options.onDelivery) {
      const onDelivery = options.onDelivery;
      record.subscribe((e) => e.kind === 'delivery' && onDelivery(e.delivery));
    }
    const own = voiceRoutes({ store, record, runner: calls, authorize: (h) => options.apiKey !== undefined && authorize(h, options.apiKey), inspectorDir: options.inspectorDir, apiKeyRequired: options.apiKey !== undefined });
    const fallback = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => (await own(req, res)) || (options.fallback ? options.fallback(req, res) : false);
    const log = (line: RequestLog, bodies: RequestBodyText): void => {
      record.addRequest(line, bodies);
      // The inspector's own requests (its files, its reads) are recorded but not printed.
      if (!line.inspector) options.log?.(line);
    };
    server = createServer({ keepAliveTimeout: 65_000 }, createListener({ store, env, writer, apiKey: options.apiKey, log, cors, fallback }));
    await listen(server, options.port ?? 0, host);
  } catch (err) {
    await lock?.release();
    throw err;
  }
  // A failing socket after start must never take the process down.
  server.on('error', (err) => process.stderr.write(`voice emulator: ${err.message}\n`));
  const port = (server.address() as AddressInfo).port;
  env.url = `http://${urlHost(host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: env.url,
    port,
    host,
    record,
    calls,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        calls.close();
        server.close(() => done());
        server.closeAllConnections();
      })
        .then(() => writer?.idle())
        .finally(() => lock?.release())),
  };
}
