// `voice dev reset` and `voice dev snapshot save|restore|list`: a running emulator's state from
// another terminal or a test script. Thin: one request to the emulator's own endpoint each.
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { CONTROL_PATHS, restorePath, snapshotPath } from '#core/emulator/control/paths';
import { ControlUnreachableError, controlClient } from '#core/emulator/control/client';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { ClientCommand, refuseServerOptions } from './client.js';
import type { DevIo } from './options.js';

interface UrlOptions {
  apiUrl?: string;
}

async function call(cmd: Command, defaultUrl: string, method: 'GET' | 'POST', path: string, payload?: unknown): Promise<{ base: string; body: Record<string, unknown> }> {
  refuseServerOptions(cmd);
  const opts = cmd.optsWithGlobals<UrlOptions>();
  const base = (opts.apiUrl ?? process.env.VOICE_API_URL?.trim() ?? defaultUrl).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(base)) throw usageError(`--api-url must be an http(s) URL, got "${base}"`);
  const key = cmd.optsWithGlobals<{ apiKey?: string }>().apiKey ?? process.env.VOICE_API_KEY ?? 'any-key';
  const res = await controlClient(base, { apiKey: key })
    .send(method, path, payload)
    .catch((e: unknown) => {
      if (e instanceof ControlUnreachableError) throw new CliError(e.message, ExitCode.Failure, 'Start one with `voice dev` (or pass --api-url where it runs).');
      throw e;
    });
  const body = (res.body && typeof res.body === 'object' ? res.body : {}) as Record<string, unknown>;
  if (res.status === 401) throw new CliError('The emulator refused the key.', ExitCode.Auth, 'Pass the key it was started with: --api-key KEY or VOICE_API_KEY.');
  if (res.status === 404 && /Cannot/.test(String(body.message)))
    throw new CliError(`${base} is not a voice emulator (no ${path} endpoint).`, ExitCode.Failure, 'Point --api-url at a running `voice dev`.');
  if (!res.ok) throw new CliError(String(body.message ?? `HTTP ${res.status}`), res.status === 400 ? ExitCode.Usage : ExitCode.Failure);
  return { base, body };
}

function speedArgument(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 10_000) throw new InvalidArgumentError('expected a number above 0, at most 10000 (e.g. 10 runs calls ten times faster).');
  return n;
}

function withUrl(cmd: Command, defaultUrl: string): Command {
  return cmd
    .option('--api-url <url>', `the running emulator (default: VOICE_API_URL, else ${defaultUrl})`)
    .addHelpText('after', '\nAn emulator started with --api-key needs that key: --api-key KEY or VOICE_API_KEY.\n`voice dev --port N` serves at --api-url http://127.0.0.1:N.');
}

/** `voice dev reset` and `voice dev snapshot`. */
export function stateCommands(io: DevIo, defaultUrl: string): Command[] {
  const reset = withUrl(new ClientCommand('reset'), defaultUrl)
    .description('Return a running emulator to its starting state (imported, seeded, applied); calls in flight are cancelled, nothing is delivered after it')
    .addHelpText('after', `\nExamples:\n  voice dev reset\n  voice dev reset --api-url http://127.0.0.1:4011\n  curl -X POST http://127.0.0.1:4010/__voice/reset`)
    .action(async (_o: unknown, cmd: Command) => {
      const { base, body } = await call(cmd, defaultUrl, 'POST', CONTROL_PATHS.reset);
      io.out(`${JSON.stringify(body)}\n`);
      io.err(`Reset ${base}: ${String(body.objects)} objects, ${String(body.cancelledCalls)} calls cancelled, ${String(body.ms)} ms\n`);
    });
  const speed = withUrl(new ClientCommand('speed'), defaultUrl)
    .description("Change a running emulator's clock speed now; calls under way carry on at the new speed")
    .argument('<n>', 'run the simulated clock N times faster (1 = real time), above 0, at most 10000', speedArgument)
    .addHelpText('after', `\nExamples:\n  voice dev speed 1\n  voice dev speed 100 --api-url http://127.0.0.1:4011\n  curl -X POST http://127.0.0.1:4010/__voice/speed -d '{"speed": 10}'`)
    .action(async (n: number, _o: unknown, cmd: Command) => {
      const { base, body } = await call(cmd, defaultUrl, 'POST', CONTROL_PATHS.speed, { speed: n });
      io.out(`${JSON.stringify(body)}\n`);
      io.err(`Calls at ${base} now run at ${String(body.speed)}x (were ${String(body.was)}x; ${String(body.activeCalls)} under way)\n`);
    });
  const snapshot = new ClientCommand('snapshot').description('Save and restore named snapshots of a running emulator (kept in its memory)');
  snapshot.addCommand(
    withUrl(new ClientCommand('save'), defaultUrl)
      .description('Save everything now under a name')
      .argument('<name>', 'letters, digits, dots, dashes, underscores')
      .addHelpText('after', '\nExample:\n  voice dev snapshot save before-booking')
      .action(async (name: string, _o: unknown, cmd: Command) => {
        const { body } = await call(cmd, defaultUrl, 'POST', snapshotPath(name));
        io.err(`Saved snapshot ${name} (${String(body.objects)} objects)\n`);
      }),
  );
  snapshot.addCommand(
    withUrl(new ClientCommand('restore'), defaultUrl)
      .description('Return to a saved snapshot (calls in flight are cancelled)')
      .argument('<name>', 'a saved snapshot')
      .addHelpText('after', '\nExample:\n  voice dev snapshot restore before-booking')
      .action(async (name: string, _o: unknown, cmd: Command) => {
        const { body } = await call(cmd, defaultUrl, 'POST', restorePath(name));
        io.err(`Restored snapshot ${name} (${String(body.objects)} objects, ${String(body.cancelledCalls)} calls cancelled)\n`);
      }),
  );
  snapshot.addCommand(
    withUrl(new ClientCommand('list'), defaultUrl)
      .description('List the saved snapshots')
      .addHelpText('after', '\nExample:\n  voice dev snapshot list')
      .action(async (_o: unknown, cmd: Command) => {
        const { body } = await call(cmd, defaultUrl, 'GET', CONTROL_PATHS.snapshots);
        for (const n of (body.names as string[] | undefined) ?? []) io.out(`${n}\n`);
      }),
  );
  return [reset, speed, snapshot];
}
