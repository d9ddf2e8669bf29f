// Every server of the inventory (cli/servers.ts) started on a free loopback port, each with what
// a legitimate caller sends to make it do something (store, place a call, forward, join) and a
// count of what it did. The inventory test (servers.test.ts) and the Chromium test
// (web/e2e/local-servers.test.ts) send the same actions from places that must be refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import { startDemo } from '../commands/demo/server.js';
import type { DemoServer } from '../commands/demo/server.js';
import { serveMcpHttp } from '../commands/mcp/http.js';
import type { McpHttp } from '../commands/mcp/http.js';
import { noopAnswer } from '../webhook/noop.js';
import { startReceiver } from '../webhook/receiver.js';
import type { Receiver } from '../webhook/receiver.js';
import { devServer } from './dev-server.js';
import type { DevServer } from './dev-server.js';

/** What a caller sends to make a server act. */
export interface Action {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A WebSocket a legitimate page opens. */
export interface Socket {
  path: string;
  protocol?: string;
}

/** One running server of the inventory, as its legitimate callers see it. */
export interface ServerProbe {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The Origin a legitimate page sends (undefined: its callers are no pages). */
  page?: string;
  /** An HTTP server: the request that makes it act, with what a legitimate caller sends (token included). */
  action?: () => Promise<Action>;
  /** A WebSocket server: what a legitimate page opens. */
  socket?: () => Promise<Socket>;
  /** How many things it has done so far (stored, placed, forwarded, joined); undefined: it only answers. */
  effects?(): Promise<number>;
}

/** A token for `voice mcp --http` in these tests. */
export const MCP_TOKEN = 'mcp-token-for-tests-0123456789';

const json = { 'content-type': 'application/json' };
const KEY = { authorization: 'Bearer any-key' };

async function count(emu: Emulator, path: string): Promise<number> {
  const res = await fetch(`${emu.url}${path}`, { headers: KEY });
  const body = (await res.json()) as unknown[] | { names: unknown[] };
  return Array.isArray(body) ? body.length : body.names.length;
}

/** A web call waiting to be joined, and its socket path. */
async function queuedWebCall(emu: Emulator): Promise<string> {
  const assistant = (await (await fetch(`${emu.url}/assistant`, { method: 'POST', headers: { ...KEY, ...json }, body: '{"name":"web"}' })).json()) as { id: string };
  const call = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: { ...KEY, ...json }, body: JSON.stringify({ assistantId: assistant.id }) })).json()) as { id: string };
  return `/__voice/webcall/${call.id}`;
}

/** Starts every server of the inventory; `close()` stops them all. */
export async function startServers(): Promise<{ probes: Record<string, ServerProbe>; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'voice-servers-'));
  const visitors = join(dir, 'visitors.json');
  writeFileSync(visitors, JSON.stringify([{ slug: 'acme', name: 'Acme', system: 'You are Acme.', first_message: 'Hello.' }]));
  const emu = await startEmulator({ port: 0 });
  const mcpTarget = await startEmulator({ port: 0 });
  const developer: DevServer = await devServer();
  let received = 0;
  const receiver: Receiver = await startReceiver({
    port: 0,
    host: '127.0.0.1',
    forwardTo: `${developer.url}/hook`,
    timeoutMs: 10_000,
    noop: noopAnswer,
    onReceived: (r) => void (r.message && !r.refused && received++),
  });
  const mcp: McpHttp = await serveMcpHttp({ baseUrl: mcpTarget.url, apiKey: 'local', hosted: false, allowWrites: true }, { port: 0, token: MCP_TOKEN });
  const demo: DemoServer = await startDemo({ port: 0, emulatorPort: 0, visitors, env: { HOME: dir, XDG_CONFIG_HOME: join(dir, 'cfg') }, cwd: dir, log: () => undefined });
  const demoCalls = async (): Promise<number> => {
    const t = demo.callTarget as { baseUrl: string; apiKey: string };
    return ((await (await fetch(`${t.baseUrl}/call?limit=1000`, { headers: { authorization: `Bearer ${t.apiKey}` } })).json()) as unknown[]).length;
  };
  const loopbackPage = 'http://127.0.0.1:5173';
  const joined = async (): Promise<number> =>
    ((await (await fetch(`${emu.url}/call`, { headers: KEY })).json()) as { type: string; status: string }[]).filter((c) => c.type === 'webCall' && c.status !== 'queued').length;
  const probes: Record<string, ServerProbe> = {
    emulator: {
      origin: emu.url,
      page: loopbackPage,
      action: async () => ({ method: 'POST', path: '/assistant', headers: { ...KEY, ...json }, body: '{"name":"planted"}' }),
      effects: () => count(emu, '/assistant'),
    },
    inspector: {
      origin: emu.url,
      page: loopbackPage,
      action: async () => ({ method: 'POST', path: `/__voice/snapshots/s${Date.now()}`, headers: { ...KEY, ...json }, body: '{}' }),
      effects: () => count(emu, '/__voice/snapshots'),
    },
    'web-call socket': {
      origin: emu.url,
      page: loopbackPage,
      socket: async () => ({ path: await queuedWebCall(emu) }),
      effects: joined,
    },
    demo: {
      origin: demo.origin,
      page: demo.origin,
      action: async () => ({ method: 'GET', path: '/rest/v1/visitors?select=*&slug=eq.acme&limit=1', headers: { accept: 'application/json' } }),
    },
    'demo HMR socket': {
      origin: demo.origin,
      page: demo.origin,
      // The token Vite's client carries (Vite refuses a page without it; the guard comes first).
      socket: async () => ({ path: `/?token=${/wsToken = "([^"]+)"/.exec(await (await fetch(`${demo.origin}/@vite/client`)).text())?.[1] ?? ''}`, protocol: 'vite-hmr' }),
    },
    'call-me': {
      origin: demo.origin,
      page: demo.origin,
      action: async () => ({ method: 'POST', path: '/__voice/call-me', headers: json, body: '{"phone":"+14155550101","slug":"acme"}' }),
      effects: demoCalls,
    },
    listen: {
      origin: receiver.url,
      action: async () => ({ method: 'POST', path: '/hook', headers: json, body: JSON.stringify({ message: { type: 'status-update', status: 'in-progress', call: { id: 'c1' } } }) }),
      effects: async () => developer.got.length + received,
    },
    mcp: {
      origin: mcp.url.replace(/\/mcp$/, ''),
      action: async () => ({
        method: 'POST',
        path: '/mcp',
        headers: { ...json, accept: 'application/json, text/event-stream', authorization: `Bearer ${MCP_TOKEN}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'upsert_assistant', arguments: { name: 'planted' } } }),
      }),
      effects: () => count(mcpTarget, '/assistant'),
    },
  };
  return {
    probes,
    close: async () => {
      await Promise.all([demo.close(), mcp.close(), receiver.close(), developer.close(), emu.close(), mcpTarget.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
