// `voice demo` as a function: serves web/ through Vite with the runtime configuration, the
// local visitors endpoint and the local Call Me webhook. Loaded only when `voice demo` runs.
import type { Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { CALL_ME_PATH, callMeMiddleware, type CallTarget } from '#core/visitors/callme';
import { VisitorError } from '#core/visitors/errors';
import { LiveVisitorsFile } from '#core/visitors/file-store';
import { hostedVisitorLookup } from '#core/visitors/hosted-store';
import { visitorsMiddleware } from '#core/visitors/postgrest';
import { slugProblem } from '#core/visitors/model';
import { EMULATOR_PORT } from '#core/hosts';
import { coreSource } from '../../../web/vite/core-source.js';
import { flagFiles } from '../../../web/vite/flag-files.js';
import { packageMapsDev } from '../../../web/vite/package-maps-dev.js';
import { PHONE_INPUT, phoneInputDev } from '../../../web/vite/phone-input-dev.js';
import { configScript } from '#core/visitors/page-config';
import { DEFAULT_SELLER, withFavicon } from '#core/visitors/seller';
import { CliError, usageError } from '../../errors.js';
import { resolveDemoConfig, type DemoFlags, type ResolvedDemoConfig } from './config.js';
import { packageRoot, visitorsFile, watchIgnored } from './files.js';
import { demoGuard } from './guard.js';
import { NONCE_PLACEHOLDER, securityHeaders } from './headers.js';
import { isLocalPlatform, LOCAL_KEY, localAssistant, localAssistantMiddleware, NotAnswering, startCallTarget, warmLocalEmulator, watchCommand } from './platform.js';
import { localCallInfo } from './local-info.js';
import { loadViteTools } from './vite.js';

/** What `startDemo` takes; everything is optional. */
export interface DemoOptions {
  slug?: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  open?: boolean;
  /** Not found for unknown slugs instead of the 'Visitor' fallback. */
  strict?: boolean;
  /** A visitors JSON file instead of ./visitors.json or the bundled fixtures. */
  visitors?: string;
  flags?: DemoFlags;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Port for the in-process emulator (4010, so `voice call list --local` sees its calls). */
  emulatorPort?: number;
  /** Where chatter goes (stderr by default). */
  log?: (line: string) => void;
}

/** A running demo. */
export interface DemoServer {
  /** The page for the chosen slug, e.g. `http://127.0.0.1:5173/acme`. */
  url: string;
  /** The server's origin. */
  origin: string;
  /** Where the local webhook places calls, when it is serving. */
  callTarget?: CallTarget;
  /** True when that is a local emulator. */
  localEmulator: boolean;
  /** The emulator Test in Browser runs on, when it runs on one (no browser-call keys configured). */
  localBrowserCalls?: string;
  /** The local emulator the demo's calls run on: its URL, whether the demo started it, whether it serves the inspector. */
  emulator?: { url: string; started: boolean; inspector: boolean };
  config: ResolvedDemoConfig;
  /** Stops Vite, the webhook and any emulator it started. */
  close(): Promise<void>;
}

/** Starts the demo and resolves once the page is being served. */
export async function startDemo(options: DemoOptions = {}): Promise<DemoServer> {
  // Vite is the slowest thing to load: start now, check the settings meanwhile.
  const tools = loadViteTools();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cwd = options.cwd ?? process.cwd();
  const slug = options.slug ?? 'default';
  const problem = slugProblem(slug);
  if (problem) throw usageError(`Invalid slug ${JSON.stringify(slug)}: ${problem}.`, 'Example: --slug acme');
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 5173;
  const config = resolveDemoConfig({ ...options.flags, strict: options.strict ?? options.flags?.strict }, options.env ?? process.env);
  const root = packageRoot();

  let store: LiveVisitorsFile | undefined;
  if (!config.page.supabaseUrl) {
    try {
      store = new LiveVisitorsFile(visitorsFile(options.visitors ?? (options.env ?? process.env).VOICE_VISITORS_FILE, cwd, root));
    } catch (err) {
      if (err instanceof VisitorError) throw usageError(err.message, 'Pass --visitors FILE with a JSON array of { slug, name, system, first_message }.');
      throw err;
    }
    if (!store.get(slug)) log(`warning: no visitor "${slug}" in ${store.file}; the page ${config.page.strict ? 'shows Not found' : "greets 'Visitor'"}.`);
  }

  // Platform notes wait until Vite listens, so a busy port is the only thing the user reads.
  const notes: string[] = [];
  const localWebhook = !config.page.webhookUrl;
  if (localWebhook) config.page.webhookUrl = CALL_ME_PATH;
  // Without a public key and assistant, Test in Browser runs on the platform Call Me uses when that is an emulator.
  const browserLocal = !(config.page.publicKey && config.page.assistantId);
  // The emulator (if any) starts while Vite does: nothing here waits on the other.
  const targetPromise =
    localWebhook || browserLocal
      ? startCallTarget({
          apiKey: config.apiKey,
          apiUrl: config.apiUrl,
          assistantId: config.page.assistantId,
          phoneNumberId: config.phoneNumberId,
          port: options.emulatorPort ?? EMULATOR_PORT,
          withAssistant: browserLocal,
          log: (line) => notes.push(line),
        })
      : undefined;
  // Awaited after Vite listens; until then a failure must not count as unhandled.
  targetPromise?.catch(() => undefined);
  // On a local emulator, calls use the demo's assistant, looked up at each call (the emulator may
  // start after the demo or restart); its address is known now, so the page's settings are too.
  const platform = targetPromise?.then((t) => {
    const local = isLocalPlatform(t, config.apiKey);
    const known = t.assistantId ? { id: t.assistantId, trusted: Boolean(t.inProcess) } : undefined;
    return { ...t, local, assistant: local ? localAssistant(t.target.baseUrl, known) : undefined };
  });
  platform?.catch(() => undefined);
  // Test in Browser on the emulator: the page's settings for it are complete once the emulator is
  // known. The HTML waits for this, so no page is served without them.
  let localBrowserCalls: string | undefined;
  const pageReady = platform?.then(
    async (p) => {
      // The page says where a Call Me call went (the emulator, its inspector) only on a local platform.
      if (p.local && localWebhook) config.page.localPlatform = true;
      if (!p.local || !browserLocal) return;
      const baseUrl = p.target.baseUrl;
      Object.assign(config.page, { apiBaseUrl: baseUrl, publicKey: LOCAL_KEY, localCalls: true });
      localBrowserCalls = baseUrl;
      try {
        config.page.assistantId = await p.assistant!();
      } catch (err) {
        const why = err instanceof NotAnswering ? '' : ` (${(err as Error).message})`;
        notes.push(`The emulator at ${baseUrl} does not answer yet${why}; Call Me and Test in Browser look for it there at each call.`);
      }
    },
    () => undefined,
  );
  const lookup = store ? (s: string) => store.get(s) : hostedVisitorLookup(config.page.supabaseUrl, config.page.supabaseAnonKey);

  const plugin: Plugin = {
    name: 'voice-demo',
    transformIndexHtml: async (html) => {
      await pageReady;
      return { html: withFavicon(html, config.page.seller.logo || DEFAULT_SELLER.logo), tags: [{ tag: 'script', children: configScript(config.page), injectTo: 'head-prepend' }] };
    },
    configureServer(server) {
      // First of all: no other middleware sees a request the guard refuses.
      const guard = demoGuard(host, log);
      server.middlewares.use(guard.middleware);
      if (server.httpServer && 'listeners' in server.httpServer) guard.wrapUpgrades(server.httpServer as Server);
      server.middlewares.use(securityHeaders(config.page));
      if (store) server.middlewares.use(visitorsMiddleware(store));
      if (platform && browserLocal) server.middlewares.use(localAssistantMiddleware(platform, log));
      if (platform && localWebhook) {
        // One webhook for the server's life: its rate limit counts across requests.
        const webhook = platform.then((p) => {
          const { baseUrl, apiKey } = p.target;
          const local = p.local ? async (id: string) => ({ ...(await localCallInfo(baseUrl, apiKey)), watch: watchCommand(id, baseUrl, true) }) : undefined;
          return callMeMiddleware({ lookup, target: p.target, log, bind: host, assistant: p.assistant, watch: (id) => watchCommand(id, baseUrl, p.local), ...(local ? { local } : {}) });
        });
        webhook.catch(() => undefined);
        server.middlewares.use((req, res, next) => {
          if ((req.url ?? '').split('?')[0] !== CALL_ME_PATH) return next();
          webhook.then((handle) => handle(req, res, next), next);
        });
      }
    },
  };

  const {
    vite: { createServer },
    react,
    saveCache,
  } = await tools;
  let server: ViteDevServer | undefined;
  try {
    server = await createServer({
      configFile: false,
      envDir: false,
      root: join(root, 'web'),
      logLevel: 'warn',
      clearScreen: false,
      appType: 'spa',
      // Vite puts this on every script and style of the page; securityHeaders() swaps it for a fresh nonce per load.
      html: { cspNonce: NONCE_PLACEHOLDER },
      // Benchmarks measure a cold start with an empty cache of their own.
      cacheDir: (options.env ?? process.env).VOICE_DEMO_CACHE_DIR || undefined,
      // The page has no PostCSS configuration: saying so spares Vite its search for one (a dozen
      // file names in every folder up to the root, about 18 ms of a start; the same CSS comes out).
      css: { postcss: { plugins: [] } },
      plugins: [coreSource(join(root, 'core')), react(), plugin, flagFiles(), phoneInputDev(), packageMapsDev([join(root, 'web'), join(root, 'core')])],
      server: {
        host,
        port,
        strictPort: true,
        // No CORS: other local pages have no business reading the page's modules (Vite allows loopback by default).
        cors: false,
        // Host names are checked by the shared guard (./guard.ts), as on every server of the CLI.
        allowedHosts: true,
        open: options.open ? `/${slug}` : false,
        fs: { allow: [root] },
        // Only the page's own files are watched (an edit reloads it): in a checkout, web/ also holds
        // the inspector's app, tests, scripts and Vite plugins, and setting up watchers for them
        // took about 30 ms of every start.
        watch: { ignored: [watchIgnored(join(root, 'web'))] },
        // Transforms the page and its modules while the browser is still asking for the HTML (the
        // modules the HTML itself adds are warmed once listening, below).
        warmup: { clientFiles: ['./index.html', './src/main.tsx'] },
      },
      optimizeDeps: {
        // Every dependency the page can load is named here, so nothing is found later (no second
        // optimization, no page reload when a lazy chunk arrives); with no entries to scan, Vite
        // skips its discovery scan. The phone form's library is bundled when the form first opens
        // (web/vite/phone-input-dev.ts), not with these. On a cold start the bundling runs beside
        // the server instead of before it listens (as `noDiscovery` would have it): the page and
        // its own modules are served meanwhile, and only the dependency requests wait for the
        // bundle, which is written to the cache as soon as it is built (holdUntilCrawlEnd: false),
        // so a short run still leaves the next start warm. Sentry is bundled only when a DSN makes the page load it
        // (that changes the cache key, so it costs one cold start when toggled). daily-js is one
        // self-contained ES module, served as is.
        entries: [],
        holdUntilCrawlEnd: false,
        include: ['react', 'react/jsx-dev-runtime', 'react-dom/client', ...(config.page.sentryDsn ? ['@sentry/react'] : [])],
        exclude: ['@daily-co/daily-js', PHONE_INPUT],
      },
    });
    await server.listen();
    // The modules the HTML adds (Vite's client, React Refresh), beyond the warmed files' graph.
    for (const url of ['/@vite/client', '/@react-refresh']) void server.environments.client.warmupRequest(url);
  } catch (err) {
    await server?.close().catch(() => undefined);
    await targetPromise?.then((t) => t.close()).catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    // Vite's strictPort failure carries no code: the port is probed instead of its words read.
    if (code === 'EADDRINUSE' || (await portTaken(host, port))) {
      throw new CliError(`Port ${port} on ${host} is already in use.`, 1, 'Pass --port <number> to use another port (or --port 0 for any free one).');
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw usageError(`Cannot listen on host "${host}" (${code}).`, 'Pass --host with an address of this machine, e.g. --host 127.0.0.1.');
    throw err;
  }
  const address = server.httpServer?.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const origin = `http://${shownHost}:${actualPort}`;
  let target: Awaited<NonNullable<typeof targetPromise>> | undefined;
  try {
    target = await targetPromise;
  } catch (err) {
    await server.close();
    throw err;
  }
  // Read by the page at each load (transformIndexHtml), so complete before anyone is told the URL.
  await pageReady;
  for (const line of notes) log(line);
  let closed: Promise<void> | undefined;
  // The emulator's request schemas load a second after Vite has transformed the page's first modules
  // (its requests idle), not while the browser is still loading and running them: the first Call
  // Me or browser call, seconds later, finds them ready.
  // Then too, a code cache of Vite is written to the user's folder if the built one did not fit.
  void server.environments.client.waitForRequestsIdle().then(() => {
    setTimeout(() => {
      if (closed) return;
      saveCache();
      if (target?.inProcess) void warmLocalEmulator().catch(() => undefined);
    }, WARM_DELAY_MS).unref();
  });
  return {
    url: `${origin}/${slug}`,
    origin,
    callTarget: localWebhook ? target?.target : undefined,
    localEmulator: (localWebhook && (await platform)?.local) ?? false,
    localBrowserCalls,
    ...(target && (await platform)?.local ? { emulator: { url: target.target.baseUrl, started: Boolean(target.inProcess), inspector: Boolean(target.inspector) } } : {}),
    config,
    close: () => (closed ??= Promise.all([server.close(), target?.close()]).then(() => undefined)),
  };
}

/** How long after the page's modules are ready the emulator's schemas load. */
const WARM_DELAY_MS = 1000;

/** Whether something else listens on host:port now (port 0 never is). */
function portTaken(host: string, port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}
