// `voice mcp`: an MCP server a coding agent (Claude Code, Cursor, VS Code) starts to build, call
// and test voice agents. On a `voice dev` it starts in-process unless --api-url names one; on the
// hosted platform with --hosted (reads only, unless --allow-writes). `voice mcp setup` writes the
// project's client configuration. Thin: flags here, the server and tools beside it, in cli/commands/mcp/.
import { randomBytes } from 'node:crypto';
import { Command, InvalidArgumentError } from 'commander';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import { contextOf } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { CLIENTS, plannedConfig, setupNote, writeConfig } from './setup.js';
import type { McpClient } from './setup.js';
import { allTools, createMcpServer } from './server.js';
import { normaliseOrigin } from '#core/net/guard';
import type { ToolContext } from './tool.js';
import { inspectorDir } from '../../inspector-dir.js';
import { addSecret, err, out } from '../../redact.js';
import { portFlag } from '../../webhook/flags.js';
import { addModelOptions } from '../dev/options.js';
import type { DevOptions } from '../dev/options.js';
import { modelConfig } from '../dev/run.js';

interface McpOptions {
  apiUrl?: string;
  hosted?: boolean;
  allowWrites?: boolean;
  http?: number;
  allowOrigin?: string[];
  /** Port of the in-process platform (0: any free one). */
  port?: number;
  speed: number;
}

/** Parses `--allow-origin` (repeatable) into a normalised origin. */
function originFlag(value: string, previous: string[] | undefined): string[] {
  try {
    return [...(previous ?? []), normaliseOrigin(value)];
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}

function speedFlag(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 10_000) throw new InvalidArgumentError('expected a number above 0, at most 10000.');
  return n;
}

/** The `--llm*` flags as given, for the `voice test` runs of run_tests (the key travels in VOICE_LLM_KEY). */
function modelFlags(opts: Partial<DevOptions>): string[] {
  const out: string[] = [];
  if (opts.llm) out.push('--llm', opts.llm);
  for (const m of opts.llmModel ?? []) out.push('--llm-model', m);
  if (opts.llmReplay) out.push('--llm-replay', opts.llmReplay);
  return out;
}

/** A port a client connects to (1 to 65535: 0 picks a new one each start, which no file can name). */
function setupPortFlag(value: string): number {
  const n = portFlag(value);
  if (n === 0) throw new InvalidArgumentError('expected the port you start voice mcp --http on, 1 to 65535 (0 picks a new one each start).');
  return n;
}

/** Parses `--api-url`: the http(s) URL of a running `voice dev`. */
function apiUrlFlag(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new InvalidArgumentError('expected the http:// URL of a running `voice dev`, e.g. http://127.0.0.1:4010.');
  return value;
}

/** The platform the tools work on, and the emulator started for them (if any). */
async function target(cmd: Command, opts: McpOptions & Partial<DevOptions>): Promise<{ ctx: ToolContext; emulator?: Emulator; about: string }> {
  if (opts.hosted && opts.apiUrl) throw usageError('--hosted and --api-url both say where to work; pass one.');
  if (opts.allowWrites && !opts.hosted) throw usageError('--allow-writes is for --hosted (on the local platform the tools always may write).');
  if ((opts.hosted || opts.apiUrl) && (opts.llm || opts.llmReplay || opts.llmRecord || opts.llmModel?.length))
    throw usageError(
      '--llm options configure the platform voice mcp starts in-process; a running one (--api-url, --hosted) uses its own model.',
      'Start `voice dev` with the --llm options, or drop --api-url.',
    );
  if (opts.port !== undefined && (opts.hosted || opts.apiUrl)) throw usageError('--port is the port of the platform voice mcp starts in-process; with --hosted or --api-url it starts none.');
  if (opts.hosted) {
    const cli = contextOf(cmd);
    const apiKey = cli.requireKey();
    return {
      ctx: { baseUrl: cli.settings().baseUrl, apiKey, hosted: true, allowWrites: Boolean(opts.allowWrites) },
      about: `the hosted platform at ${cli.settings().baseUrl}${opts.allowWrites ? ' (writes allowed)' : ' (reads only; --allow-writes to change things)'}`,
    };
  }
  if (opts.apiUrl)
    return {
      ctx: { baseUrl: opts.apiUrl.replace(/\/+$/, ''), apiKey: 'local', hosted: false, allowWrites: true, running: true },
      about: `the emulator at ${opts.apiUrl}`,
    };
  const inspector = inspectorDir();
  const emulator = await startEmulator({ port: opts.port ?? 0, speed: opts.speed, model: modelConfig(opts as DevOptions), inspectorDir: inspector }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'EADDRINUSE') throw new CliError(`Port ${opts.port ?? 0} is already in use.`, ExitCode.Failure, 'Pick another with --port, or --port 0 for any free one.');
    throw e;
  });
  return {
    ctx: { baseUrl: emulator.url, apiKey: 'local', hosted: false, allowWrites: true, modelFlags: modelFlags(opts), ...(opts.llmKey ? { modelKey: opts.llmKey } : {}) },
    emulator,
    about: `a local platform at ${emulator.url} (calls at ${opts.speed}x; ${emulator.model.describe()}${inspector ? `; inspector: ${emulator.url}/__voice/inspector/` : ''})`,
  };
}

/** The token every HTTP request carries: VOICE_MCP_TOKEN, or a new random one (printed once). */
function httpToken(env: NodeJS.ProcessEnv): { token: string; generated: boolean } {
  const given = env.VOICE_MCP_TOKEN;
  if (given === undefined || given === '') return { token: randomBytes(32).toString('base64url'), generated: true };
  if (given.length < 16 || /\s/.test(given)) throw usageError('VOICE_MCP_TOKEN must be 16 characters or more, without spaces.', 'Make one with: openssl rand -hex 32');
  return { token: given, generated: false };
}

/** Serves the tools over HTTP until a signal; the token is printed once when it was generated. */
async function serveUntilStopped(ctx: ToolContext, port: number, origins: string[] | undefined, { token, generated }: ReturnType<typeof httpToken>): Promise<void> {
  const { serveMcpHttp } = await import('./http.js');
  const served = await serveMcpHttp(ctx, { port, token, origins });
  err(`voice mcp: streamable HTTP on ${served.url}\n`);
  // Written past the redaction once, then registered: it never shows again, not even in an error.
  if (generated) process.stderr.write(`voice mcp: every request needs Authorization: Bearer ${token}\n  (a new token each start; set VOICE_MCP_TOKEN to keep one)\n`);
  else err('voice mcp: every request needs Authorization: Bearer $VOICE_MCP_TOKEN\n');
  addSecret(token);
  await new Promise<void>((done) => {
    const quit = (): void => done();
    process.once('SIGINT', quit);
    process.once('SIGTERM', quit);
  });
  await served.close();
}

/** `voice mcp` and `voice mcp setup`. */
export function mcpCommand(): Command {
  const cmd = new Command('mcp')
    .description('MCP server for coding agents: find and call API operations, build assistants, place test calls and chats, read transcripts and deliveries')
    .option('--api-url <url>', 'work on the voice dev at this URL instead of starting one in-process', apiUrlFlag)
    .option('--hosted', 'work on the hosted platform with your key (reads only unless --allow-writes)')
    .option('--allow-writes', 'with --hosted: let the tools create, change and delete')
    .option('--http <port>', 'serve streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio; every request needs the bearer token (VOICE_MCP_TOKEN, or one printed at start)', portFlag)
    .option('--allow-origin <origin>', 'with --http: also answer a browser-based client on this origin, e.g. http://localhost:6274 (repeatable)', originFlag)
    .option('--speed <n>', "simulated clock speed of the in-process platform's calls", speedFlag, 20)
    .option('--port <port>', 'port of the in-process platform (default: any free port), e.g. to open its inspector or point the CLI at it', portFlag);
  addModelOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Started by a coding agent over stdio (stdout carries the protocol; messages go to stderr).
Without --api-url or --hosted it runs its own local platform in-process: nothing costs money.

Examples:
  $ voice mcp setup claude          # writes .mcp.json for this project
  $ voice mcp setup cursor --print  # shows .cursor/mcp.json without writing it
  $ voice mcp --llm http://127.0.0.1:11434/v1 --llm-model llama3.2
  $ voice mcp --api-url http://127.0.0.1:4010
  $ voice mcp --hosted              # reads only; --allow-writes to change things
  $ VOICE_MCP_TOKEN=$(openssl rand -hex 32) voice mcp --http 4390
  $ voice mcp setup claude --http 4390   # the URL, and the token read from VOICE_MCP_TOKEN`,
  );
  cmd.action(async (_o: unknown, self: Command) => {
    const opts = self.opts<McpOptions & Partial<DevOptions>>();
    if (opts.allowOrigin && opts.http === undefined) throw usageError('--allow-origin is for --http (over stdio no web page can reach the server).');
    // Checked before anything starts: no server runs over HTTP without its token.
    const token = opts.http === undefined ? undefined : httpToken(process.env);
    const { ctx, emulator, about } = await target(self, opts);
    err(`voice mcp: ${allTools().length} tools over ${about}\n`);
    const stop = async (): Promise<void> => {
      await emulator?.close();
    };
    if (opts.http !== undefined && token) {
      await serveUntilStopped(ctx, opts.http, opts.allowOrigin, token);
      return stop();
    }
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const server = createMcpServer(ctx);
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((done) => (server.onclose = () => done()));
    await server.connect(transport);
    // The client ends the session by closing stdin (or a signal).
    await Promise.race([closed, new Promise<void>((done) => process.stdin.once('end', () => done()))]);
    await server.close().catch(() => undefined);
    await stop();
  });
  cmd
    .command('setup')
    .description(`write this project's MCP configuration for a client (${CLIENTS.join(', ')}), merged into what is there`)
    .argument('<client>', CLIENTS.join(' | '))
    .option('--print', 'print the configuration instead of writing it')
    .option('--http <port>', 'connect the client to `voice mcp --http PORT` you run yourself: the URL, and the token from VOICE_MCP_TOKEN (never written into the file)', setupPortFlag)
    .action(async (client: string, o: { print?: boolean; http?: number }, self: Command) => {
      if (!(CLIENTS as readonly string[]).includes(client)) throw usageError(`Unknown client "${client}"; choose one of ${CLIENTS.join(', ')}.`);
      // `voice mcp`'s own --http takes the flag wherever it stands: read it there too.
      const port = o.http ?? self.parent?.opts<McpOptions>().http;
      if (port === 0) throw usageError('--http: expected the port you start voice mcp --http on, 1 to 65535 (0 picks a new one each start).');
      const how = port === undefined ? undefined : { port };
      let planned;
      try {
        planned = o.print ? plannedConfig(client as McpClient, process.cwd(), [], how) : await writeConfig(client as McpClient, process.cwd(), [], how);
      } catch (e) {
        throw usageError((e as Error).message);
      }
      // Not the project's own CLI: say why the command names this machine's paths, and how to share it.
      const local =
        planned.launcher.portable || how
          ? ''
          : 'This project does not have voice-agent-cli installed, so the client starts this installation by its paths on this machine; to share the configuration, `npm install --save-dev voice-agent-cli` here and run this setup again.\n';
      if (o.print) {
        out(`# ${planned.file} (not written)\n${planned.text}`);
        if (local) err(local);
      } else err(`Wrote ${planned.file}:\n${planned.text}${setupNote(client as McpClient, planned, how)}\n${local}`);
    });
  return cmd;
}
