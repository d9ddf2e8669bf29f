// `voice mcp setup claude|cursor|vscode`: the project's own MCP client configuration (never a
// global one), merged into what is there: other servers stay, ours is added or replaced. With
// `--http PORT` the entry is the URL of a `voice mcp --http` the developer runs, and the bearer
// header each client fills in from where it keeps secrets (never the token itself: project files
// get committed): Claude Code expands `${VOICE_MCP_TOKEN}`, Cursor `${env:VOICE_MCP_TOKEN}`, and
// VS Code asks once for `${input:voice-mcp-token}` and keeps it in its secret storage.
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { writeFileAtomic } from '#core/fs/atomic';

/** The clients whose project configuration we write. */
export const CLIENTS = ['claude', 'cursor', 'vscode'] as const;
export type McpClient = (typeof CLIENTS)[number];

/** A `voice mcp --http` the developer runs: the client connects to its URL. */
export interface HttpSetup {
  port: number;
}

/** Where each client reads its project configuration, and under which key its servers are. */
const FILES: Record<McpClient, { path: string; key: 'mcpServers' | 'servers' }> = {
  claude: { path: '.mcp.json', key: 'mcpServers' },
  cursor: { path: '.cursor/mcp.json', key: 'mcpServers' },
  vscode: { path: '.vscode/mcp.json', key: 'servers' },
};

/** The environment variable both `voice mcp --http` and the clients read the token from. */
export const TOKEN_VARIABLE = 'VOICE_MCP_TOKEN';

/** VS Code's input that holds the token (asked once, kept in its secret storage). */
const VSCODE_INPUT = { type: 'promptString', id: 'voice-mcp-token', description: 'Bearer token of voice mcp --http (VOICE_MCP_TOKEN)', password: true };

/** How each client writes "the token from where secrets are kept" inside a header value. */
const TOKEN_REFERENCE: Record<McpClient, string> = {
  claude: `\${${TOKEN_VARIABLE}}`,
  cursor: `\${env:${TOKEN_VARIABLE}}`,
  vscode: `\${input:${VSCODE_INPUT.id}}`,
};

/** The command line a client runs to start the server. */
export interface Launcher {
  command: string;
  args: string[];
  /** True when it is the project's own CLI (the same on every machine with the project installed). */
  portable: boolean;
}

/**
 * How a client starts the server from `dir`: the project's own CLI through npx, by its package name
 * (`npx voice` would fetch an unrelated package), when the project has it installed; otherwise
 * this very installation, by absolute paths, so the command works on the machine that wrote it.
 */
export function launcher(dir: string, args: readonly string[] = []): Launcher {
  let installed = false;
  try {
    const home = dirname(createRequire(join(dir, 'package.json')).resolve('voice-agent-cli/package.json'));
    // A dependency of the project, not this repository finding itself by its own name.
    installed = dir !== home && !dir.startsWith(`${home}${sep}`);
  } catch {
    // Not installed in the project.
  }
  if (installed) return { command: 'npx', args: ['voice-agent-cli', 'mcp', ...args], portable: true };
  return { command: process.execPath, args: [realpathSync(process.argv[1] as string), 'mcp', ...args], portable: false };
}

/** How a client starts the server, or connects to the one the developer runs. */
function entry(client: McpClient, { command, args }: Launcher, http: HttpSetup | undefined): Record<string, unknown> {
  if (http) {
    const remote = { url: `http://127.0.0.1:${http.port}/mcp`, headers: { Authorization: `Bearer ${TOKEN_REFERENCE[client]}` } };
    // Cursor tells streamable HTTP from its URL; the others name the transport.
    return client === 'cursor' ? remote : { type: 'http', ...remote };
  }
  return client === 'vscode' ? { type: 'stdio', command, args } : { command, args };
}

function readCurrent(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix it or move it away, nothing was written`);
  }
}

/** What was (or would be) written where, and the command that starts the server (the client's, or yours with --http). */
export interface PlannedConfig {
  file: string;
  text: string;
  launcher: Launcher;
}

/** The file a client's configuration goes to, and its contents with our server merged in. */
export function plannedConfig(client: McpClient, dir: string, args: readonly string[] = [], http?: HttpSetup): PlannedConfig {
  const { path, key } = FILES[client];
  const file = join(dir, path);
  const current = readCurrent(file);
  const start = launcher(dir, http ? [...args, '--http', String(http.port)] : args);
  const servers = { ...((current[key] as Record<string, unknown> | undefined) ?? {}), voice: entry(client, start, http) };
  const next: Record<string, unknown> = { ...current, [key]: servers };
  if (client === 'vscode' && http) {
    const inputs = Array.isArray(current.inputs) ? (current.inputs as { id?: unknown }[]).filter((i) => i?.id !== VSCODE_INPUT.id) : [];
    next.inputs = [...inputs, VSCODE_INPUT];
  }
  return { file, text: `${JSON.stringify(next, null, 2)}\n`, launcher: start };
}

/** Writes a client's configuration (atomically); returns what was written where. */
export async function writeConfig(client: McpClient, dir: string, args: readonly string[] = [], http?: HttpSetup): Promise<PlannedConfig> {
  const planned = plannedConfig(client, dir, args, http);
  mkdirSync(dirname(planned.file), { recursive: true });
  await writeFileAtomic(planned.file, planned.text);
  return planned;
}

/** What the developer does next, after the file is written. */
export function setupNote(client: McpClient, planned: PlannedConfig, http: HttpSetup | undefined): string {
  const started = [planned.launcher.command, ...planned.launcher.args].join(' ');
  if (!http) return `Your client starts \`${started}\` in this folder; restart it (or reload its MCP servers) to pick it up.`;
  const where =
    client === 'vscode'
      ? 'VS Code asks for the token the first time it connects (and keeps it in its secret storage).'
      : `Your client reads the token from ${TOKEN_VARIABLE} in its own environment: start it from a shell where it is set.`;
  return [
    `Run the server yourself, with a token of your own that stays the same across starts:`,
    `  export ${TOKEN_VARIABLE}=$(openssl rand -hex 32)`,
    `  ${started}`,
    where,
    'The token is not in the file: keep it out of the repository.',
  ].join('\n');
}
