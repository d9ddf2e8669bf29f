// The local platform emulator: the whole REST API of the platform on loopback, generated
// from the catalogue, with an in-memory store and optional file persistence.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { ensureDefaultOrg } from './actions/org.js';
import { DataFileError, DataFileWriter, loadDataFile } from './persist.js';
import { seedStore } from './seed.js';
import { createListener } from './server.js';
import type { RequestLog } from './server.js';
import { Store } from './store.js';
import { acceptWebCalls } from './webcall-socket.js';
import type { WebCallEngine } from './webcall-socket.js';

export { DataFileError } from './persist.js';
export type { RequestLog } from './server.js';
export { SEED } from './seed.js';
export type { BrowserCall, BrowserCustomer, WebCallEngine } from './webcall-socket.js';

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
  /**
   * Base of web-call room URLs, e.g. `https://vapi.daily.co`. Unset: the emulator's own address,
   * where `voice/webcall` joins the call over a WebSocket and the browser is the customer.
   */
  webCallUrlBase?: string;
  /** Runs the web calls browsers join (the emulator's call engine unless a test gives another). */
  webCallEngine?: WebCallEngine;
  /** Called once per finished request (used by `voice dev` to print a request log). */
  log?: (line: RequestLog) => void;
  /** Answers requests no catalogue route matches; return true when it did. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
}

/** A running emulator. */
export interface Emulator {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  host: string;
  /** Stops listening, drops open connections and waits for pending data-file writes. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts an emulator; rejects with a DataFileError for an unusable data file, or the listen error (e.g. EADDRINUSE). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const file = options.dataFile ? resolve(options.dataFile) : undefined;
  const snapshot = file ? await loadDataFile(file) : undefined;
  const store = new Store(snapshot);
  let changed = ensureDefaultOrg(store);
  if (options.seed) changed = seedStore(store) || changed;
  const writer = file ? new DataFileWriter(file, () => store.snapshot()) : undefined;
  // Write at once when new, so an unwritable path fails at start rather than on the first change.
  if (writer && (changed || !snapshot)) {
    await writer.flush().catch((err: unknown) => {
      throw new DataFileError(file as string, `cannot be written (${(err as Error).message})`);
    });
  }

  const env = { url: '', webCallUrlBase: (options.webCallUrlBase ?? '').replace(/\/+$/, '') };
  const server = createServer({ keepAliveTimeout: 65_000 }, createListener({ store, env, writer, apiKey: options.apiKey, log: options.log, fallback: options.fallback }));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const closeWebCalls = options.webCallEngine ? acceptWebCalls(server, store, options.webCallEngine) : () => undefined;
  // A failing socket after start must never take the process down.
  server.on('error', (err) => process.stderr.write(`voice emulator: ${err.message}\n`));
  const port = (server.address() as AddressInfo).port;
  env.url = `http://${urlHost(host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: env.url,
    port,
    host,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        closeWebCalls();
        server.close(() => done());
        server.closeAllConnections();
      }).then(() => writer?.idle())),
  };
}
