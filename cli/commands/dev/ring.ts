// `voice dev ring <phoneNumberId>`: an inbound caller for a running `voice dev`. Posts to the
// emulator's own ring endpoint and prints the new call's id (stdout) and how to follow it (stderr): `voice call watch`.
import { ControlUnreachableError, controlClient } from '#core/emulator/control/client';
import type { Command } from 'commander';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { localFlags } from '#core/hosts';
import { ClientCommand, refuseServerOptions } from './client.js';

/** Where `ring` writes; tests pass their own. */
export interface RingIo {
  out(text: string): void;
  err(text: string): void;
}

interface RingOptions {
  from: string;
  apiUrl?: string;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** The `voice dev ring` command. */
export function ringCommand(io: RingIo, defaultUrl: string): Command {
  return new ClientCommand('ring')
    .description('Ring a phone number of a running `voice dev` as an inbound caller would (its assistant, squad or workflow answers, or assistant-request goes to its server)')
    .argument('<phoneNumberId>', 'id of the phone number to ring (see: voice --local phone-number list)')
    .option('--from <number>', "the caller's number (E.164)", '+15555550123')
    .option('--api-url <url>', `the running emulator (default: VOICE_API_URL, else ${defaultUrl})`)
    .addHelpText(
      'after',
      `
Examples:
  voice dev ring 6f1d2c3a-0000-4000-8000-000000000001
  voice dev ring 6f1d2c3a-0000-4000-8000-000000000001 --from +14155550100 --api-url http://127.0.0.1:4011`,
    )
    .action(async (phoneNumberId: string, opts: RingOptions, cmd: Command) => {
      refuseServerOptions(cmd);
      if (!E164.test(opts.from)) throw usageError(`--from must be an international number like +14155550100, got "${opts.from}"`);
      const base = (opts.apiUrl ?? process.env.VOICE_API_URL?.trim() ?? defaultUrl).replace(/\/+$/, '');
      if (!/^https?:\/\//.test(base)) throw usageError(`--api-url must be an http(s) URL, got "${base}"`);
      const key = cmd.optsWithGlobals<{ apiKey?: string }>().apiKey ?? process.env.VOICE_API_KEY ?? 'any-key';
      const res = await controlClient(base, { apiKey: key })
        .ring(phoneNumberId, opts.from)
        .catch((e: unknown) => {
          if (e instanceof ControlUnreachableError) throw new CliError(e.message, ExitCode.Failure, 'Start one with `voice dev` (or pass --api-url where it runs).');
          throw e;
        });
      const body = res.body && typeof res.body === 'object' ? res.body : {};
      if (res.status === 404 && body.message === 'Phone Number not found')
        throw new CliError(`The emulator at ${base} has no phone number ${phoneNumberId}.`, ExitCode.Failure, `List them with: voice phone-number list ${localFlags(base)}`);
      if (res.status === 404) throw new CliError(`${base} is not a voice emulator (no ring endpoint).`, ExitCode.Failure, 'Point --api-url at a running `voice dev`.');
      if (res.status === 401) throw new CliError('The emulator refused the key.', ExitCode.Auth, 'Pass the key it was started with: --api-key KEY or VOICE_API_KEY.');
      if (!res.ok || !body.id) throw new CliError(`Ringing failed: HTTP ${res.status} ${JSON.stringify(body.message ?? body)}`);
      io.out(`${body.id}\n`);
      io.err(`Ringing ${phoneNumberId} from ${opts.from}: call ${body.id}\nFollow it: voice call watch ${body.id} ${localFlags(base)}\n`);
    });
}
