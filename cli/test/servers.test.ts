// The inventory of local servers (cli/servers.ts) against the code and against the servers
// themselves: every call in cli/ and core/ that creates a server or listens is accounted for, and
// every server of the inventory, started for real, refuses a rebound Host, a foreign Origin and a
// browser's text/plain cross-site POST before acting (nothing stored, placed, forwarded or
// joined), while the same request from its legitimate callers acts.
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, relative } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SERVERS, SERVER_SITES } from '../servers.js';
import { ROOT } from './build.js';
import { startServers } from './servers.test-support.js';
import type { Action, ServerProbe, Socket } from './servers.test-support.js';

const CALL = /\bcreate(?:Secure|Net|Http|Https)?Server\s*\(|\bWebSocketServer\s*\(|\.listen\(/g;

/** Test code and test support: never started by the CLI. */
function isTestCode(rel: string): boolean {
  return /\.test\.tsx?$|\.test-support\.ts$|(^|\/)testing\.ts$|-testing\.ts$/.test(rel) || rel.startsWith('cli/test/');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(path) : /\.(ts|tsx|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** Calls that create a server or listen, per file (comments aside). */
function serverCalls(): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of [...sourceFiles(join(ROOT, 'cli')), ...sourceFiles(join(ROOT, 'core'))]) {
    const rel = relative(ROOT, file);
    if (isTestCode(rel)) continue;
    const code = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .join('\n');
    const n = code.match(CALL)?.length ?? 0;
    if (n) found[rel] = n;
  }
  return found;
}

interface Answer {
  status: number;
  text: string;
}

function send(origin: string, action: Action, extra: Record<string, string | undefined> = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...action.headers };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${action.path}`, { method: action.method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(action.body);
  });
}

/** Opens a socket; resolves with `open`, or the refusal's status (0 when the connection just closed). */
function upgrade(origin: string, socket: Socket, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}${socket.path}`, socket.protocol ? [socket.protocol] : [], { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

const EVIL = 'http://evil.example';
let servers: Awaited<ReturnType<typeof startServers>>;

beforeAll(async () => {
  servers = await startServers();
}, 120_000);
afterAll(() => servers?.close());

describe('the inventory of local servers', () => {
  it('accounts for every call in cli/ and core/ that creates a server or listens', () => {
    const expected = Object.fromEntries(Object.entries(SERVER_SITES).map(([file, site]) => [file, site.calls]));
    // A server added without an entry here fails: add it to cli/servers.ts with its guard and probe.
    expect(serverCalls()).toEqual(expected);
  });

  it('has a probe for every server it lists, and lists every probe; the guide names each', () => {
    expect(Object.keys(servers.probes).sort()).toEqual(LOCAL_SERVERS.map((s) => s.name).sort());
    const guide = readFileSync(join(ROOT, 'docs/local-servers.md'), 'utf8');
    // Its table is prettier's: names padded to the column's width.
    for (const s of LOCAL_SERVERS) expect(guide, s.name).toMatch(new RegExp(`^\\| ${s.name} +\\|`, 'm'));
  });
});

const byName = (name: string): ServerProbe => servers.probes[name] as ServerProbe;

describe.each(LOCAL_SERVERS.map((s) => [s.name, s.pages]))('%s (pages: %s)', (name) => {
  it('refuses a rebound Host, a foreign Origin and a text/plain cross-site POST before acting; its own callers get through', async () => {
    const probe = byName(name);
    const host = `evil.example:${new URL(probe.origin).port}`;
    const before = await probe.effects?.();
    if (probe.action) {
      const action = await probe.action();
      const rebound = await send(probe.origin, action, { host, origin: undefined });
      expect(rebound.status, rebound.text).toBe(403);
      expect(rebound.text).toContain('DNS rebinding');
      const foreign = await send(probe.origin, action, { origin: EVIL });
      expect(foreign.status, foreign.text).toBe(403);
      // What a <form enctype="text/plain"> or fetch(..., { mode: 'no-cors' }) sends: no preflight, no Authorization.
      const simple = await send(probe.origin, { ...action, method: 'POST' }, { origin: EVIL, 'content-type': 'text/plain', authorization: undefined, accept: undefined });
      expect(simple.status, simple.text).toBe(403);
    }
    if (probe.socket) {
      const socket = await probe.socket();
      expect(await upgrade(probe.origin, socket, { host, origin: `http://${host}` })).toBe(403);
      expect(await upgrade(probe.origin, socket, { origin: EVIL })).toBe(403);
      const simple = await send(probe.origin, { method: 'POST', path: socket.path, headers: { origin: EVIL, 'content-type': 'text/plain' }, body: '{}' });
      expect(simple.status, simple.text).toBe(403);
    }
    expect(await probe.effects?.()).toBe(before);
    // The same from its legitimate callers: a loopback page of its own (when pages call it), the token.
    const page: Record<string, string> = probe.page === undefined ? {} : { origin: probe.page };
    if (probe.action) {
      const ok = await send(probe.origin, await probe.action(), page);
      expect(ok.status, ok.text).toBeGreaterThanOrEqual(200);
      expect(ok.status, ok.text).toBeLessThan(300);
    }
    if (probe.socket) expect(await upgrade(probe.origin, await probe.socket(), page)).toBe('open');
    if (before !== undefined) await expect.poll(() => probe.effects?.(), { timeout: 10_000 }).toBeGreaterThan(before);
  }, 60_000);
});
