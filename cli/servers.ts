// Every server the CLI can start on a developer's machine, and how each is guarded. All of them
// put the shared guard (core/net/guard.ts) in front of their requests: a Host name that
// could have been rebound is refused (403), and so is a page its callers do not include (403),
// whether it asked first or sent a browser's "simple" request (a text/plain form, a no-cors
// fetch). cli/test/servers.test.ts starts each one and tries exactly that, and finds every
// `createServer(`, `WebSocketServer(` and `.listen(` in cli/ and core/: each must be in
// SERVER_SITES. web/e2e/local-servers.test.ts tries it again from real pages in Chromium.
import type { PagePolicy } from '#core/net/guard';

/** One server the CLI starts. */
export interface LocalServer {
  /** Short name (the tests key their probes by it). */
  name: string;
  /** The commands that start it. */
  startedBy: readonly string[];
  /** Which pages may call it (the guard's policy). */
  pages: PagePolicy;
  /** Who calls it, in a sentence: why that policy. */
  callers: string;
  /** What it checks besides the guard (a key, a token, a signature). */
  auth: string;
}

/** The servers, one entry each; several may share a listening socket (the emulator's three). */
export const LOCAL_SERVERS: readonly LocalServer[] = [
  {
    name: 'emulator',
    startedBy: ['voice dev', 'voice demo (no API key)', 'voice mcp', 'voice test'],
    pages: 'loopback',
    callers:
      'the CLI, SDKs and tests (no Origin); apps under development on loopback origins and --cors-origin ones; any site for the public-key operations (POST /call/web, /chat/web), as the platform',
    auth: 'a bearer key (exactly --api-key when given)',
  },
  {
    name: 'inspector',
    startedBy: ['voice dev'],
    pages: 'loopback',
    callers: "its own page, served by the emulator at /__voice/inspector/ (the emulator's socket)",
    auth: "the emulator's key for what changes things",
  },
  {
    name: 'web-call socket',
    startedBy: ['voice dev', 'voice demo (Test in Browser on the emulator)'],
    pages: 'loopback',
    callers: "voice/webcall's local transport in a page on a loopback or --cors-origin origin (the emulator's socket, /__voice/webcall/<id>)",
    auth: 'an unguessable call id of a web call waiting to be joined',
  },
  {
    name: 'demo',
    startedBy: ['voice demo', 'npm start'],
    pages: 'self',
    callers: 'the demo page itself (its modules, the visitors endpoint)',
    auth: 'none: it serves a page',
  },
  {
    name: 'demo HMR socket',
    startedBy: ['voice demo'],
    pages: 'self',
    callers: "Vite's client in the demo page (the demo's socket), reloading it when its files change",
    auth: "Vite's own token, which only the page's client knows",
  },
  {
    name: 'call-me',
    startedBy: ['voice demo (no webhook URL configured)'],
    pages: 'self',
    callers: "the demo page's Call Me form (JSON only, a preflight for any other origin); curl",
    auth: 'a visitor that exists, 5 calls a minute per client',
  },
  {
    name: 'listen',
    startedBy: ['voice listen'],
    pages: 'none',
    callers: "the platform's and the emulator's server messages (server-to-server: no Origin), through a tunnel under --allow-host names",
    auth: 'with --secret: x-vapi-secret or a bearer token; with --credential: the bearer or HMAC signature',
  },
  {
    name: 'mcp',
    startedBy: ['voice mcp --http'],
    pages: 'self',
    callers: 'coding agents connecting to a URL (no Origin); a browser-based client named with --allow-origin',
    auth: 'a bearer token on every request (VOICE_MCP_TOKEN, or generated and printed once)',
  },
];

/**
 * Every file of cli/ and core/ (tests and test support aside) that creates a server or listens:
 * how many such calls it has and what they are. The inventory test finds the calls and compares.
 */
export const SERVER_SITES: Readonly<Record<string, { calls: number; what: string }>> = {
  'core/emulator/index.ts': { calls: 2, what: 'emulator, inspector, web-call socket: createServer, listen' },
  'core/emulator/http/webcall-socket.ts': { calls: 1, what: "web-call socket: the WebSocketServer on the emulator's upgrades (noServer)" },
  'cli/commands/demo/server.ts': { calls: 4, what: "demo, call-me: Vite's createServer and listen; a port probe that closes at once" },
  'cli/webhook/receiver.ts': { calls: 2, what: 'listen: createServer, listen' },
  'cli/commands/mcp/http.ts': { calls: 2, what: 'mcp: createServer, listen' },
  'cli/commands/dev/run.ts': { calls: 2, what: 'not a server: a port probe that closes at once (a free port to suggest)' },
  'core/webcall/local-transport.ts': { calls: 1, what: "not a server: the browser transport's own listen() step" },
  'cli/launch/build-vite-script.js': { calls: 2, what: "build time only (npm run build): Vite on 127.0.0.1:0 for a few fetches that warm its code cache, under Vite's own Host check" },
};
