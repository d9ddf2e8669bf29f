// `voice api <METHOD> <path>`: any request with the configured auth, for paths the catalogue
// does not name or for quick experiments.
import { Command } from 'commander';
import { VERSION } from '#core/version';
import { buildRequest } from 'voice-agent-core/client';
import type { HttpMethod } from '#core/catalogue/index';
import { buildBody, splitAssignment } from '../../body.js';
import { contextOf } from '../../context.js';
import type { GlobalOptions } from '../../settings.js';
import { usageError } from '../../errors.js';
import { curlCommand, showRequest } from '../../output/dry-run.js';
import { printData, printJson } from '../../output/print.js';
import { confirmOrRefuse } from '../../prompt.js';
import { addSecretsOf, out } from '../../redact.js';
import { collect } from '../resources/index.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The options of `voice api`, as commander sets them. */
export interface ApiOptions {
  file?: string;
  set?: string[];
  query?: string[];
}

/** The `api` command. */
export function apiCommand(): Command {
  return new Command('api')
    .description('Send any request to the platform API with the configured key')
    .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
    .argument('<path>', 'path below the base URL, e.g. /assistant or /assistant/<id>')
    .option('-f, --file <path>', 'JSON body from a file, or - for stdin')
    .option('--set <key=value>', 'set a body field (repeatable; JSON values are parsed)', collect)
    .option('--query <key=value>', 'query parameter (repeatable)', collect)
    .addHelpText(
      'after',
      '\nExamples:\n  $ voice api GET /assistant --query limit=2\n  $ voice api POST /assistant -f assistant.json\n  $ voice api PATCH /assistant/<id> --set name="Front desk"\n  $ voice api DELETE /assistant/<id> --yes\n',
    )
    .action(async (methodArg: string, pathArg: string, _o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const opts = cmd.optsWithGlobals<ApiOptions & GlobalOptions>();
      const method = methodArg.toUpperCase();
      if (!METHODS.includes(method)) throw usageError(`Unknown method "${methodArg}": use ${METHODS.join(', ')}`);
      const [rawPath, rawQuery] = pathArg.split('?', 2) as [string, string | undefined];
      const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
      const query: Record<string, string | string[]> = {};
      const addQ = (k: string, v: string): void => {
        const prev = query[k];
        query[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
      };
      if (rawQuery) for (const [k, v] of new URLSearchParams(rawQuery)) addQ(k, v);
      for (const raw of opts.query ?? []) addQ(...splitAssignment(raw, '--query'));
      const hasBody = opts.file !== undefined || (opts.set?.length ?? 0) > 0;
      if (hasBody && (method === 'GET' || method === 'DELETE')) throw usageError(`${method} requests take no body; use --query`);
      const body = hasBody ? await buildBody(opts.file, opts.set ?? []) : method === 'GET' || method === 'DELETE' ? undefined : {};
      addSecretsOf(body);

      if (opts.dryRun) {
        const s = ctx.settings();
        const qs = new URLSearchParams();
        for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
        const req = buildRequest(
          { apiKey: s.apiKey, baseUrl: s.baseUrl, userAgent: `voice-cli/${VERSION}` },
          { method: method as HttpMethod, path: path + (qs.size ? `?${qs}` : ''), body: body === undefined ? 'none' : 'json' },
          [],
          body,
        );
        const shown = showRequest(req, s.apiKey);
        if (ctx.output.mode === 'json') printJson(shown, ctx.output);
        else out(curlCommand(shown, req.bodyKind));
        return;
      }
      ctx.requireKey();
      if (method === 'DELETE') await confirmOrRefuse(`send DELETE ${path}`, opts);
      const data = await ctx.client().request({ method: method as HttpMethod, path, query, body });
      await printData(data, path.split('/').filter(Boolean).slice(0, 1), ctx.output);
    });
}
