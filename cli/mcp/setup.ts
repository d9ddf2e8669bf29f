// `voice mcp setup claude|cursor|vscode`: the project's own MCP client configuration (never a
// global one), merged into what is there: other servers stay, ours is added or replaced.
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { writeFileAtomic } from '#core/fs/atomic';

/** The clients whose project configuration we write. */
export const CLIENTS = ['claude', 'cursor', 'vscode'] as const;
export type McpClient = (typeof CLIENTS)[number];

/** Where each client reads its project configuration, and under which key its servers are. */
const FILES: Record<McpClient, { path: string; key: 'mcpServers' | 'servers' }> = {
  claude: { path: '.mcp.json', key: 'mcpServers' },
  cursor: { path: '.cursor/mcp.json', key: 'mcpServers' },
  vscode: { path: '.vscode/mcp.json', key: 'servers' },
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

function entry(client: McpClient, { command, args }: Launcher): Record<string, unknown> {
  return client === 'vscode' ? { type: 'stdio', command, args } : { command, args };
}

/** The file a client's configuration goes to, and its contents with our server merged in. */
export function plannedConfig(client: McpClient, dir: string, args: readonly string[] = []): { file: string; text: string; launcher: Launcher } {
  const { path, key } = FILES[client];
  const file = join(dir, path);
  let current: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix it or move it away, nothing was written`);
    }
  }
  const start = launcher(dir, args);
  const servers = { ...((current[key] as Record<string, unknown> | undefined) ?? {}), voice: entry(client, start) };
  return { file, text: `${JSON.stringify({ ...current, [key]: servers }, null, 2)}\n`, launcher: start };
}

/** Writes a client's configuration (atomically); returns what was written where. */
export async function writeConfig(client: McpClient, dir: string, args: readonly string[] = []): Promise<{ file: string; text: string; launcher: Launcher }> {
  const planned = plannedConfig(client, dir, args);
  mkdirSync(dirname(planned.file), { recursive: true });
  await writeFileAtomic(planned.file, planned.text);
  return planned;
}
