// `voice mcp` as a coding agent starts it: the MCP SDK's own client over stdio, spawning the built
// CLI. It lists valid tools, builds an assistant whose tool runs on a loopback server, places a call
// with the fake model and reads the transcript with the tool's result in one tool call; bad input
// comes back as tool errors naming the field; --hosted refuses writes without --allow-writes and
// never shows the key; `setup` writes a configuration whose command starts it as written: the
// project's own CLI by its package name, or this installation where the project lacks it (the HTTP
// transport: http.test.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv from 'ajv';
import { execa } from 'execa';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../../test/build.js';
import { BIN, connect, textOf } from './mcp-client.test-support.js';
import { runTool } from './server.js';
import type { Tool } from './tool.js';

type Json = Record<string, unknown>;

let model: FakeModel;
let toolServer: { url: string; received: Json[]; close: () => void };
let agent: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  ensureBuilt();
  const received: Json[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const message = (JSON.parse(raw) as { message: Json }).message;
      received.push(message);
      const calls = (message.toolCallList as { id: string }[] | undefined) ?? [];
      res.writeHead(200, { 'content-type': 'application/json' });
      // /broken answers the way docs/mcp.md's walkthrough starts: `id` instead of `toolCallId` and `result`.
      const broken = req.url === '/broken';
      res.end(JSON.stringify(message.type === 'tool-calls' ? { results: calls.map((c) => (broken ? { id: c.id } : { toolCallId: c.id, result: 'Booked: Tuesday 10:00, confirmation K7' })) } : {}));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  toolServer = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tools`, received, close: () => server.close() };
  // The model books when the customer asks, then reads the tool's answer back.
  model = await startFakeModel((req) => {
    const messages = req.body.messages as { role: string; content?: string }[];
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: `You're all set. ${String(last.content)}.` };
    if (last?.role === 'user' && /tuesday/i.test(String(last.content))) return { toolCalls: [{ name: 'book_slot', arguments: { day: 'Tuesday', time: '10:00' }, chunks: 3 }] };
    return { text: 'Happy to help. Anything else?' };
  });
  agent = await connect(['mcp', '--llm', model.url, '--speed', '50']);
}, 120_000);

afterAll(async () => {
  await agent?.client.close();
  await model?.close();
  toolServer?.close();
});

describe('voice mcp over stdio', () => {
  it('lists its tools, each with a valid JSON Schema for its input', async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'find_operation',
        'describe_operation',
        'call_operation',
        'upsert_assistant',
        'test_call',
        'get_call',
        'say_as_customer',
        'test_chat',
        'send_server_message',
        'reset_platform',
        'snapshot_platform',
      ]),
    );
    const ajv = new Ajv();
    for (const t of tools) {
      expect(ajv.validateSchema(t.inputSchema), `${t.name}: ${ajv.errorsText()}`).toBe(true);
      expect(t.inputSchema.type).toBe('object');
    }
    expect(agent.stderr()).toMatch(/voice mcp: \d+ tools over a local platform/);
  });

  it('builds an assistant with a tool on a loopback server, calls it with the model, and reads back the transcript and the tool result in one tool call', async () => {
    const made = JSON.parse(
      textOf(
        await agent.client.callTool({
          name: 'upsert_assistant',
          arguments: {
            name: 'Front desk',
            systemPrompt: 'You book appointments. Use book_slot when the caller names a day.',
            firstMessage: 'Thanks for calling, how can I help?',
            tools: [
              {
                name: 'book_slot',
                description: 'Book a slot',
                parameters: { type: 'object', properties: { day: { type: 'string' }, time: { type: 'string' } }, required: ['day'] },
                serverUrl: toolServer.url,
              },
            ],
          },
        }),
      ),
    ) as { assistantId: string; tools: string[] };
    expect(made.tools).toEqual(['book_slot']);
    const result = await agent.client.callTool({ name: 'test_call', arguments: { assistantId: made.assistantId, say: ['Can I come in on Tuesday?'] } });
    expect(result.isError).toBeFalsy();
    const report = JSON.parse(textOf(result)) as {
      endedReason: string;
      transcript: { items: { role: string; text: string }[] };
      toolCalls: { name: string; arguments: Json; result: string }[];
      deliveries: { type: string }[];
    };
    expect(report.toolCalls).toEqual([expect.objectContaining({ name: 'book_slot', arguments: { day: 'Tuesday', time: '10:00' }, result: 'Booked: Tuesday 10:00, confirmation K7' })]);
    const said = report.transcript.items.map((m) => `${m.role}: ${m.text}`);
    expect(said).toContain('customer: Can I come in on Tuesday?');
    expect(said).toContain("assistant: You're all set. Booked: Tuesday 10:00, confirmation K7.");
    expect(report.deliveries.map((d) => d.type)).toContain('tool-calls');
    expect(toolServer.received.filter((m) => m.type === 'tool-calls')).toHaveLength(1);
    expect(typeof report.endedReason).toBe('string');
  }, 120_000);

  it("shows what docs/mcp.md's walkthrough shows for a tool server that answers the wrong shape", async () => {
    const made = JSON.parse(
      textOf(
        await agent.client.callTool({
          name: 'upsert_assistant',
          arguments: {
            name: 'Broken',
            tools: [{ name: 'book_slot', parameters: { type: 'object', properties: { day: { type: 'string' } } }, serverUrl: toolServer.url.replace('/tools', '/broken') }],
          },
        }),
      ),
    ) as { assistantId: string };
    const report = JSON.parse(textOf(await agent.client.callTool({ name: 'test_call', arguments: { assistantId: made.assistantId, say: ['Can I come in on Tuesday?'] } }))) as {
      toolCalls: { result: string }[];
      deliveries: { type: string; answer?: unknown }[];
      warnings?: string[];
    };
    expect(report.toolCalls.map((c) => c.result)).toEqual(['No result returned.']);
    expect(report.deliveries.find((d) => d.type === 'tool-calls')?.answer).toEqual({ results: [{ id: expect.stringMatching(/^call_/) }] });
    expect(report.warnings?.join('\n')).toMatch(/no result for tool call call_\w+ in the answer/);
  }, 120_000);

  it('answers bad input to every tool with a tool error naming the field', async () => {
    const { tools } = await agent.client.listTools();
    for (const t of tools) {
      const unknown = await agent.client.callTool({ name: t.name, arguments: { bogusField: 1 } });
      expect(unknown.isError, t.name).toBe(true);
      expect(textOf(unknown), t.name).toMatch(/bogusField|required/);
      const required = (t.inputSchema.required as string[] | undefined) ?? [];
      if (required.length) {
        const missing = await agent.client.callTool({ name: t.name, arguments: {} });
        expect(textOf(missing), t.name).toContain(`${required[0]}: required`);
      }
    }
    const body = await agent.client.callTool({ name: 'call_operation', arguments: { operation: 'POST /assistant', body: { name: 42 } } });
    expect(body.isError).toBe(true);
    expect(textOf(body)).toContain('body.name must be a string');
    const api = await agent.client.callTool({ name: 'call_operation', arguments: { operation: 'GET /assistant/{id}', path: { id: 'no-such-id' } } });
    expect(api.isError).toBe(true);
    expect(textOf(api)).toMatch(/answered 404: .+/);
  });
});

describe('voice mcp --hosted', () => {
  let emu: Emulator;
  const KEY = 'sk-test-7f3a9c21e8';
  beforeAll(async () => {
    emu = await startEmulator({ apiKey: KEY });
  });
  afterAll(() => emu.close());

  it('reads, refuses writes without --allow-writes, and never shows the key', async () => {
    const hosted = await connect(['mcp', '--hosted'], { VOICE_API_KEY: KEY, VOICE_API_URL: emu.url, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'voice-mcp-')) });
    try {
      const read = await hosted.client.callTool({ name: 'call_operation', arguments: { operation: 'GET /assistant', query: { limit: 5 } } });
      expect(read.isError).toBeFalsy();
      const write = await hosted.client.callTool({ name: 'call_operation', arguments: { operation: 'POST /assistant', body: { name: 'x' } } });
      expect(write.isError).toBe(true);
      expect(textOf(write)).toContain('--allow-writes');
      const made = await hosted.client.callTool({ name: 'upsert_assistant', arguments: { name: 'x' } });
      expect(textOf(made)).toContain('--allow-writes');
      expect(await emu.client.assistant.list()).toHaveLength(0);
      expect(JSON.stringify([read, write, made]) + hosted.stderr()).not.toContain(KEY);
    } finally {
      await hosted.client.close();
    }
  }, 60_000);

  it('masks the key in any answer that echoes it', async () => {
    const echo: Tool = { name: 'echo', description: 'echo', inputSchema: { type: 'object' }, run: async () => ({ header: `Bearer ${KEY}` }) };
    const out = await runTool([echo], 'echo', {}, { baseUrl: 'http://x', apiKey: KEY, hosted: true, allowWrites: false });
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(JSON.stringify(out)).toContain('Bearer ***');
  });
});

describe('voice mcp setup', () => {
  /** Starts the server exactly as a configuration says, and lists its tools. */
  async function toolsOf(server: { command: string; args: string[] }, cwd: string, env: Record<string, string> = {}): Promise<number> {
    const transport = new StdioClientTransport({ command: server.command, args: server.args, cwd, env: { ...(process.env as Record<string, string>), NO_COLOR: '1', ...env }, stderr: 'pipe' });
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      return (await client.listTools()).tools.length;
    } finally {
      await client.close();
    }
  }

  it('--print writes nothing and prints a configuration that starts this installation where the project lacks the CLI', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voice-mcp-setup-'));
    try {
      const r = await execa(process.execPath, [BIN, 'mcp', 'setup', 'cursor', '--print'], { cwd: dir, reject: false });
      expect(r.exitCode).toBe(0);
      expect(existsSync(join(dir, '.cursor'))).toBe(false);
      const config = JSON.parse(r.stdout.split('\n').slice(1).join('\n')) as { mcpServers: { voice: { command: string; args: string[] } } };
      expect(config.mcpServers.voice).toEqual({ command: process.execPath, args: [BIN, 'mcp'] });
      expect(r.stderr).toContain('npm install --save-dev voice-agent-cli');
      expect(await toolsOf(config.mcpServers.voice, dir)).toBeGreaterThan(5);
      const wrote = await execa(process.execPath, [BIN, 'mcp', 'setup', 'vscode'], { cwd: dir, reject: false });
      expect(wrote.exitCode).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, '.vscode', 'mcp.json'), 'utf8'))).toEqual({ servers: { voice: { type: 'stdio', command: process.execPath, args: [BIN, 'mcp'] } } });
      const bad = await execa(process.execPath, [BIN, 'mcp', 'setup', 'emacs'], { cwd: dir, reject: false });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('claude, cursor, vscode');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("names the project's own CLI by its package name (npx voice-agent-cli) where the project has it, and that command starts it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voice-mcp-setup-'));
    try {
      // The project as `npm install --save-dev voice-agent-cli` leaves it (this checkout stands in for the package).
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-agent', private: true, devDependencies: { 'voice-agent-cli': '*' } }));
      mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(ROOT, join(dir, 'node_modules', 'voice-agent-cli'));
      symlinkSync(join('..', 'voice-agent-cli', 'bin', 'voice.js'), join(dir, 'node_modules', '.bin', 'voice'));
      const wrote = await execa(process.execPath, [BIN, 'mcp', 'setup', 'claude'], { cwd: dir, reject: false });
      expect(wrote.exitCode).toBe(0);
      expect(wrote.stderr).toContain('Your client starts `npx voice-agent-cli mcp` in this folder');
      const config = JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')) as { mcpServers: { voice: { command: string; args: string[] } } };
      expect(config.mcpServers.voice).toEqual({ command: 'npx', args: ['voice-agent-cli', 'mcp'] });
      // npx runs it from the project, offline (a registry it cannot reach: nothing is fetched).
      expect(await toolsOf(config.mcpServers.voice, dir, { npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/', npm_config_update_notifier: 'false' })).toBeGreaterThan(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('voice mcp flags', () => {
  it('--port puts its in-process platform on that port, with the inspector; refused with --api-url (exit 2)', async () => {
    // A port just released is free for the platform to take.
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const fixed = await connect(['mcp', '--port', String(port)]);
    try {
      expect(fixed.stderr()).toContain(`over a local platform at http://127.0.0.1:${port} `);
      expect(fixed.stderr()).toContain(`inspector: http://127.0.0.1:${port}/__voice/inspector/`);
      const made = await fixed.client.callTool({ name: 'call_operation', arguments: { operation: 'POST /assistant', body: { name: 'On a known port' } } });
      expect(made.isError).toBeFalsy();
      const listed = await execa(process.execPath, [BIN, 'assistant', 'list', '--json', '--local', '--api-url', `http://127.0.0.1:${port}`], {
        reject: false,
        env: { XDG_CONFIG_HOME: '/nonexistent' },
      });
      expect(listed.stdout).toContain('On a known port');
      expect((await fetch(`http://127.0.0.1:${port}/__voice/inspector/`)).status).toBe(200);
    } finally {
      await fixed.client.close();
    }
    const both = await execa(process.execPath, [BIN, 'mcp', '--port', String(port), '--api-url', 'http://127.0.0.1:4010'], { reject: false, input: '' });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--port is the port of the platform voice mcp starts in-process');
  }, 60_000);

  it('refuses an --api-url that is not an http(s) URL, before starting (exit 2)', async () => {
    for (const bad of ['notaurl', 'ftp://127.0.0.1:4010']) {
      const r = await execa(process.execPath, [BIN, 'mcp', '--api-url', bad], { reject: false, input: '' });
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr).toContain('expected the http:// URL of a running `voice dev`');
      expect(r.stdout).toBe('');
    }
  });
});
