// `voice mcp setup claude|cursor|vscode`: the project's own MCP client configuration (never a
// global one), merged into what is there: other servers stay, ours is added or replaced.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** How a client starts the server: the project's own voice, through npx. */
function entry(client: McpClient, args: readonly string[]): Record<string, unknown> {
  const command = { command: 'npx', args: ['voice', 'mcp', ...args] };
  return client === 'vscode' ? { type: 'stdio', ...command } : command;
}

/** The file a client's configuration goes to, and its contents with our server merged in. */
export function plannedConfig(client: McpClient, dir: string, args: readonly string[] = []): { file: string; text: string } {
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
  const servers = { ...((current[key] as Record<string, unknown> | undefined) ?? {}), voice: entry(client, args) };
  return { file, text: `${JSON.stringify({ ...current, [key]: servers }, null, 2)}\n` };
}

/** Writes a client's configuration (atomically); returns what was written where. */
export async function writeConfig(client: McpClient, dir: string, args: readonly string[] = []): Promise<{ file: string; text: string }> {
  const planned = plannedConfig(client, dir, args);
  mkdirSync(dirname(planned.file), { recursive: true });
  await writeFileAtomic(planned.file, planned.text);
  return planned;
}
