// `run_tests`: a folder's evals, simulations and suites, run by `voice test` itself (the same
// command CI runs) on the platform the tools work on, with its model; its JSON result comes back
// compact. In-process that is a fresh platform with this server's model flags; on a running
// `voice dev` (--api-url) the folder is applied there first (as `voice apply` does) and run there.
import { execFile } from 'node:child_process';
import { compact } from './result.js';
import type { Tool, ToolContext } from './tool.js';
import { ToolError } from './tool.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function voice(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  // process.argv[1] is the voice executable this server runs as.
  return new Promise((resolve) => {
    execFile(process.execPath, [process.argv[1] as string, ...args], { env, maxBuffer: 64 * 1024 * 1024, timeout: 30 * 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** What went wrong in a run, for the tool error: the end of its stderr (else stdout). */
const tail = (run: Run): string => run.stderr.trim().slice(-1500) || run.stdout.trim().slice(-1500);

/** Where `voice test` runs: its platform flags and the environment carrying the key. */
function where(ctx: ToolContext): { flags: string[]; env: NodeJS.ProcessEnv } {
  const env = { ...process.env, NO_COLOR: '1' };
  if (ctx.hosted) return { flags: ['--hosted'], env: { ...env, VOICE_API_KEY: ctx.apiKey, VOICE_API_URL: ctx.baseUrl } };
  if (ctx.running) return { flags: ['--api-url', ctx.baseUrl], env: { ...env, VOICE_API_KEY: ctx.apiKey } };
  return { flags: [...(ctx.modelFlags ?? [])], env: { ...env, ...(ctx.modelKey ? { VOICE_LLM_KEY: ctx.modelKey } : {}) } };
}

/** Runs `voice test DIR --json` on the tools' platform. */
export const testTool: Tool = {
  name: 'run_tests',
  description:
    "Run a resource folder's evals, simulations and suites (the layout voice pull writes) with `voice test`, on the platform these tools work on and its model: a fresh local one with this server's model settings, a running voice dev (--api-url: the folder is applied there first, as voice apply does), or the hosted platform (--hosted). Returns pass/fail per simulation and iteration, flaky verdicts and failure messages.",
  inputSchema: {
    type: 'object',
    properties: {
      dir: { type: 'string', minLength: 1, description: 'the resource folder' },
      filter: { type: 'string', description: 'only the evals and simulations whose name contains this' },
      iterations: { type: 'integer', minimum: 1, maximum: 50 },
    },
    required: ['dir'],
    additionalProperties: false,
  },
  writes: true,
  run: async (args, ctx) => {
    const dir = String(args.dir);
    const { flags, env } = where(ctx);
    if (ctx.running) {
      // A running platform runs only what it holds: the folder goes there first.
      const applied = await voice(['apply', '--dir', dir, '--yes', '--json', ...flags], env);
      if (applied.code !== 0) throw new ToolError(`voice apply --dir ${dir} on ${ctx.baseUrl} exited ${applied.code}: ${tail(applied)}`);
    }
    const test = ['test', dir, '--json', ...flags];
    if (typeof args.filter === 'string') test.push('--filter', args.filter);
    if (typeof args.iterations === 'number') test.push('--iterations', String(args.iterations));
    const run = await voice(test, env);
    let result: unknown;
    try {
      result = JSON.parse(run.stdout);
    } catch {
      throw new ToolError(`voice test ${dir} exited ${run.code}: ${tail(run)}`);
    }
    return { passed: run.code === 0, exitCode: run.code, result: compact(result) };
  },
};
