// `run_tests`: a folder's evals, simulations and suites, run by `voice test` itself (the same
// command CI runs) against the platform the tools work on; its JSON result comes back compact.
import { execFile } from 'node:child_process';
import { compact } from './result.js';
import type { Tool } from './tool.js';
import { ToolError } from './tool.js';

function voiceTest(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  // process.argv[1] is the voice executable this server runs as.
  return new Promise((resolve) => {
    execFile(process.execPath, [process.argv[1] as string, 'test', ...args], { env, maxBuffer: 64 * 1024 * 1024, timeout: 30 * 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `voice test DIR --json` against the tools' platform. */
export const testTool: Tool = {
  name: 'run_tests',
  description:
    "Run a resource folder's evals, simulations and suites (the layout voice pull writes) with `voice test`: locally on a fresh platform with this server's model settings, or on the hosted platform with --hosted. Returns pass/fail per simulation and iteration, flaky verdicts and failure messages.",
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
    // Locally, `voice test` starts a fresh platform of its own and applies the folder there (a
    // running one would need the folder applied first), with the model settings this server has.
    const flags = [String(args.dir), '--json', ...(ctx.hosted ? ['--hosted'] : (ctx.modelFlags ?? []))];
    if (typeof args.filter === 'string') flags.push('--filter', args.filter);
    if (typeof args.iterations === 'number') flags.push('--iterations', String(args.iterations));
    const env = { ...process.env, ...(ctx.hosted ? { VOICE_API_KEY: ctx.apiKey, VOICE_API_URL: ctx.baseUrl } : {}), ...(ctx.modelKey ? { VOICE_LLM_KEY: ctx.modelKey } : {}), NO_COLOR: '1' };
    const run = await voiceTest(flags, env);
    let result: unknown;
    try {
      result = JSON.parse(run.stdout);
    } catch {
      throw new ToolError(`voice test ${args.dir} exited ${run.code}: ${run.stderr.trim().slice(-1500) || run.stdout.trim().slice(-1500)}`);
    }
    return { passed: run.code === 0, exitCode: run.code, result: compact(result) };
  },
};
