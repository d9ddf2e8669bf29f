// The MCP server over the tools: lists them with their input schemas, checks each call's arguments
// against its schema, refuses writes on the hosted platform unless allowed, and answers every
// failure as a tool error carrying the message (the API's own, when the API refused).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { maskSecrets } from '#core/emulator/store/mask';
import { VERSION } from '#core/version';
import { buildTools } from './build-tools.js';
import { callTools } from './call-tools.js';
import { operationTools } from './operation-tools.js';
import { testTool } from './test-tool.js';
import type { Tool, ToolContext } from './tool.js';
import { argumentProblems } from './tool.js';

/** Every tool `voice mcp` offers, plus any a caller adds. */
export function allTools(extra: readonly Tool[] = []): Tool[] {
  return [...operationTools, ...buildTools, ...callTools, testTool, ...extra];
}

function text(value: unknown, ctx: ToolContext, isError = false): CallToolResult {
  // Secret-named fields (a webhook credential's token, a delivery's x-vapi-secret) are masked, and
  // the keys the server holds are never part of an answer, whatever echoes them.
  let out = (typeof value === 'string' ? value : JSON.stringify(maskSecrets(value), null, 2)) ?? 'null';
  for (const key of [ctx.apiKey, ctx.modelKey]) if (key && key.length >= 6) out = out.split(key).join('***');
  return { content: [{ type: 'text', text: out }], ...(isError ? { isError: true } : {}) };
}

/** Runs one tool call to its result (a tool error for bad input, refused writes and failures). */
export async function runTool(tools: readonly Tool[], name: string, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return text(`No tool named "${name}"; the tools are ${tools.map((t) => t.name).join(', ')}`, ctx, true);
  const input = (args ?? {}) as Record<string, unknown>;
  const problems = argumentProblems(tool.inputSchema, input);
  if (problems.length) return text(`Invalid arguments for ${name}: ${problems.join('; ')}`, ctx, true);
  const writes = typeof tool.writes === 'function' ? tool.writes(input) : Boolean(tool.writes);
  if (writes && !ctx.allowWrites) return text(`${name} changes the hosted platform; start voice mcp with --allow-writes to let it`, ctx, true);
  try {
    return text(await tool.run(input, ctx), ctx);
  } catch (err) {
    return text((err as Error).message, ctx, true);
  }
}

/** An MCP server offering the tools against the platform the context names. */
export function createMcpServer(ctx: ToolContext, tools: readonly Tool[] = allTools()): Server {
  const server = new Server(
    { name: 'voice', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions: ctx.hosted
        ? 'Tools over the hosted voice-AI platform.'
        : 'Tools over a local voice-AI platform (voice dev): build an assistant, place test calls and chats, read what happened, try again. Nothing here costs money or reaches real phones.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })) }));
  server.setRequestHandler(CallToolRequestSchema, (req) => runTool(tools, req.params.name, req.params.arguments, ctx));
  return server;
}
