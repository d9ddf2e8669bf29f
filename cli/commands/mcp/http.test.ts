// `voice mcp --http` as a client meets it (docs/mcp.md, "Over HTTP"): the bearer token on every
// request (from VOICE_MCP_TOKEN, never printed, or generated and printed once), Host and Origin
// refused (the shared guard), CORS only for an --allow-origin client, and `voice mcp setup --http`
// writing each client's URL-and-header form with the token left to where the client keeps secrets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../../test/build.js';

const BIN = join(ROOT, 'bin', 'voice.js');
type Json = Record<string, unknown>;

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return ((result.content as { type: string; text: string }[])[0] as { text: string }).text;
}

beforeAll(() => ensureBuilt(), 120_000);

describe('voice mcp --http and run_tests', () => {
  /** Starts `voice mcp --http 0`; resolves with its URL and everything it printed on stderr so far. */
  async function serve(env: Record<string, string> = {}, args: string[] = []): Promise<{ url: string; stderr: () => string; stop: () => void }> {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [BIN, 'mcp', '--http', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', VOICE_MCP_TOKEN: '', ...env } });
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)[\s\S]*needs Authorization/.exec(err);
        if (m) resolve(m[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`voice mcp --http exited ${code}: ${err}`)));
    });
    return { url, stderr: () => err, stop: () => child.kill('SIGTERM') };
  }

  // One server for the tests that need a fixed token (and a browser-based client's origin).
  const token = 'tok-0123456789abcdef-canary';
  let served: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    served = await serve({ VOICE_MCP_TOKEN: token }, ['--allow-origin', 'http://localhost:6274']);
  }, 60_000);
  afterAll(() => served?.stop());

  it('serves streamable HTTP on 127.0.0.1 to a client with the token, and run_tests runs voice test on a folder (no model: it fails, saying how to configure one)', async () => {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    // A token from the environment is never printed.
    expect(served.stderr()).toContain('Bearer $VOICE_MCP_TOKEN');
    expect(served.stderr()).not.toContain(token);
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } });
    const post = (headers: Record<string, string>) =>
      fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: initialize });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await post({ authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${token}`, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(200);
    const client = new Client({ name: 'http-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('run_tests');
    const run = await client.callTool({ name: 'run_tests', arguments: { dir: join(ROOT, 'fixtures', 'gitops', 'starter') } });
    const out = JSON.parse(textOf(run)) as { passed: boolean; exitCode: number; result: unknown };
    expect(out.passed).toBe(false);
    expect(out.exitCode).toBe(1);
    expect(JSON.stringify(out.result)).toMatch(/--llm/);
    await client.close();
  }, 180_000);

  it('generates a token when VOICE_MCP_TOKEN is unset, prints it once, and refuses a short one before starting', async () => {
    const served = await serve();
    try {
      const token = /Authorization: Bearer (\S+)/.exec(served.stderr())?.[1] as string;
      expect(token.length).toBeGreaterThanOrEqual(40);
      expect(served.stderr().split(token)).toHaveLength(2);
      const ok = await fetch(served.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      expect(ok.status).toBe(200);
    } finally {
      served.stop();
    }
    const short = await execa(process.execPath, [BIN, 'mcp', '--http', '0'], { reject: false, env: { VOICE_MCP_TOKEN: 'short' } });
    expect(short.exitCode).toBe(2);
    expect(short.stderr).toContain('VOICE_MCP_TOKEN must be 16 characters or more');
    const stdio = await execa(process.execPath, [BIN, 'mcp', '--allow-origin', 'http://localhost:6274'], { reject: false, input: '' });
    expect(stdio.exitCode).toBe(2);
    expect(stdio.stderr).toContain('--allow-origin is for --http');
  }, 120_000);

  it('answers a browser-based client on an --allow-origin origin, with CORS, and no other page', async () => {
    const preflight = (origin: string) =>
      fetch(served.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    const allowed = await preflight('http://localhost:6274');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    expect((await preflight('http://localhost:5173')).status).toBe(403);
  }, 120_000);
});

describe('voice mcp setup --http', () => {
  it("writes the URL and the bearer header each client's way, with the token left to where the client keeps secrets", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voice-mcp-setup-http-'));
    try {
      const fs = await import('node:fs');
      for (const client of ['claude', 'cursor', 'vscode']) {
        const r = await execa(process.execPath, [BIN, 'mcp', 'setup', client, '--http', '4390'], { cwd: dir, reject: false });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(r.stderr).toContain('VOICE_MCP_TOKEN');
      }
      const read = (path: string) => JSON.parse(fs.readFileSync(join(dir, path), 'utf8')) as Json;
      expect(read('.mcp.json')).toEqual({ mcpServers: { voice: { type: 'http', url: 'http://127.0.0.1:4390/mcp', headers: { Authorization: 'Bearer ${VOICE_MCP_TOKEN}' } } } });
      expect(read('.cursor/mcp.json')).toEqual({ mcpServers: { voice: { url: 'http://127.0.0.1:4390/mcp', headers: { Authorization: 'Bearer ${env:VOICE_MCP_TOKEN}' } } } });
      expect(read('.vscode/mcp.json')).toEqual({
        servers: { voice: { type: 'http', url: 'http://127.0.0.1:4390/mcp', headers: { Authorization: 'Bearer ${input:voice-mcp-token}' } } },
        inputs: [{ type: 'promptString', id: 'voice-mcp-token', description: 'Bearer token of voice mcp --http (VOICE_MCP_TOKEN)', password: true }],
      });
      const zero = await execa(process.execPath, [BIN, 'mcp', 'setup', 'claude', '--http', '0'], { cwd: dir, reject: false });
      expect(zero.exitCode).toBe(2);
      expect(zero.stderr).toContain('0 picks a new one each start');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
