// What an action needs, worked out from the parsed options: settings, output mode and a client.
import type { Command } from 'commander';
import { createClient, nodeTransport } from '#core/client/node';
import type { Client, NodeTransportOptions, Transport } from '#core/client/node';
import { VERSION } from '#core/version';
import { outputSettings } from './output/mode.js';
import type { OutputSettings } from './output/mode.js';
import { setErrColor, dim } from './output/style.js';
import { err, maskKey } from './redact.js';
import { requireKey, resolveSettings } from './settings.js';
import type { GlobalOptions, Settings } from './settings.js';

/** Everything a command action works with. */
export interface Context {
  opts: GlobalOptions & Record<string, unknown>;
  output: OutputSettings;
  /** Connection settings (reads the config file on first use). */
  settings(): Settings;
  /**
   * A client for the resolved settings (made on the first call; later calls get the same one).
   * `transport` pins the Node transport's path: `http` for a burst of requests in a one-shot
   * command, where loading undici costs more than it saves.
   */
  client(options?: { transport?: NodeTransportOptions['mode'] }): Client;
  /** The key, or exit 4 with a message saying how to provide one. */
  requireKey(): string;
}

/** Logs each request and answer on stderr, the Authorization header masked. */
function verboseTransport(inner: Transport, apiKey: string | undefined): Transport {
  return async (req) => {
    const started = Date.now();
    err(dim(`> ${req.method} ${req.url}\n`));
    for (const [k, v] of Object.entries(req.headers)) {
      err(dim(`> ${k}: ${k.toLowerCase() === 'authorization' ? `Bearer ${maskKey(apiKey)}` : v}\n`));
    }
    const res = await inner(req);
    err(dim(`< ${res.status} ${res.statusText} (${Date.now() - started} ms)${res.header('x-request-id') ? ` request id ${res.header('x-request-id')}` : ''}\n`));
    return res;
  };
}

/** Builds the context of an action from its command (options merged with the global ones). */
export function contextOf(cmd: Command): Context {
  const opts = cmd.optsWithGlobals() as GlobalOptions & Record<string, unknown>;
  const output = outputSettings(opts);
  setErrColor(output.errColor);
  let settings: Settings | undefined;
  let client: Client | undefined;
  const ctx: Context = {
    opts,
    output,
    settings: () => (settings ??= resolveSettings(opts)),
    client: (options) => {
      if (!client) {
        const s = ctx.settings();
        const mode = options?.transport;
        const base = opts.verbose || mode ? nodeTransport(mode ? { mode } : {}) : undefined;
        const transport = base && opts.verbose ? verboseTransport(base, s.apiKey) : base;
        client = createClient({ apiKey: s.apiKey, baseUrl: s.baseUrl, userAgent: `voice-cli/${VERSION}`, ...(transport ? { transport } : {}) });
      }
      return client;
    },
    requireKey: () => requireKey(ctx.settings()),
  };
  return ctx;
}
