// `voice mcp --http`: the tools over streamable HTTP on 127.0.0.1, for clients that connect to a
// URL. The MCP specification asks a local HTTP server to validate Origin, bind to loopback and
// authenticate; a page the developer visits must never reach these tools (they place calls and,
// with --hosted --allow-writes, change a real account). So every request passes, in order:
//   1. the shared guard (core/net/guard.ts): a Host of this machine naming this port
//      (DNS rebinding), and no page but this server's own or an --allow-origin one: 403;
//   2. the bearer token (generated at start or VOICE_MCP_TOKEN), compared in constant time: 401;
//   3. the SDK's transport, which takes only JSON bodies (415) from clients accepting JSON and
//      event streams (406), so a browser's text/plain form or no-cors post never becomes a call.
// The SDK's own Host middleware is for Express and its transport option for it is deprecated, so
// step 1 is the guard every other server of the CLI uses (cli/servers.ts).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestGuard } from '#core/net/guard';
import { constantTimeEqual } from 'voice-agent-core/verify';
import { allTools, createMcpServer } from './server.js';
import type { ToolContext } from './tool.js';

/** The path the tools are served at. */
export const MCP_PATH = '/mcp';

/** How to serve: the port (0: any free one), the token every request carries, extra page origins. */
export interface McpHttpOptions {
  port: number;
  token: string;
  /** Origins of browser-based clients allowed besides this server's own (`--allow-origin`). */
  origins?: readonly string[];
}

/** A running `voice mcp --http`. */
export interface McpHttp {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  port: number;
  close(): Promise<void>;
}

const CORS_HEADERS = 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id';

function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers }).end(body);
}

function bearer(req: IncomingMessage): string | undefined {
  return /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** Starts the HTTP server; rejects with the listen error (EADDRINUSE...). */
export async function serveMcpHttp(ctx: ToolContext, options: McpHttpOptions): Promise<McpHttp> {
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const tools = allTools();
  const guard = new RequestGuard({ pages: 'self', exactPort: true, loopbackOnly: true, origins: options.origins, name: 'voice mcp', originFlag: '--allow-origin' });
  const http = createServer((req, res) => {
    const refused = guard.check(req);
    if (refused) return rpcError(res, refused.status, refused.message);
    if ((req.url ?? '').split('?')[0] !== MCP_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`The MCP endpoint is ${MCP_PATH}\n`);
      return;
    }
    // An allowed browser-based client (the MCP inspector, named with --allow-origin) needs CORS.
    const origin = req.headers.origin;
    if (origin !== undefined) res.setHeader('access-control-allow-origin', origin).setHeader('vary', 'Origin').setHeader('access-control-expose-headers', 'mcp-session-id');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS', 'access-control-allow-headers': CORS_HEADERS, 'access-control-max-age': '600' }).end();
      return;
    }
    const sent = bearer(req);
    if (sent === undefined || !constantTimeEqual(sent, options.token)) {
      const why = sent === undefined ? 'Missing bearer token' : 'Wrong bearer token';
      return rpcError(res, 401, `${why}: send Authorization: Bearer <token> (the one voice mcp printed at start, or VOICE_MCP_TOKEN)`, { 'www-authenticate': 'Bearer realm="voice mcp"' });
    }
    // Stateless: a server and transport per request, as the SDK does for simple servers.
    const server = createMcpServer(ctx, tools);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => server.close()));
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(options.port, '127.0.0.1', () => {
      http.off('error', fail);
      ok();
    });
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    close: () =>
      new Promise<void>((done) => {
        http.close(() => done());
        http.closeAllConnections();
      }),
  };
}
