// A coding agent's side of `voice mcp` for tests: the MCP SDK's own client over stdio, spawning the built CLI.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from '../../test/build.js';

/** The built CLI. */
export const BIN = join(ROOT, 'bin', 'voice.js');

/** Starts `voice ARGS` as an MCP server and connects to it; `stderr()` is what it said there so far. */
export async function connect(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
  let stderr = '';
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env: { ...(process.env as Record<string, string>), NO_COLOR: '1', ...env }, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The text of a tool's answer. */
export function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return ((result.content as { type: string; text: string }[])[0] as { text: string }).text;
}
