// `voice login`, `voice logout` and `voice auth status`: keys stored per profile in the config
// file (0600), checked against the API before being saved.
import { Command } from 'commander';
import { ApiError, createClient } from '#core/client/node';
import { readStdin } from '../../body.js';
import { updateConfig } from '../../config.js';
import { contextOf } from '../../context.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { printJson, printValue } from '../../output/print.js';
import { green, yellow } from '../../output/style.js';
import { canPrompt, readLine } from '../../prompt.js';
import { addSecret, err, maskKey } from '../../redact.js';
import { resolveSettings } from '../../settings.js';

type Check = 'valid' | 'rejected' | 'unreachable';

/** Tries the key with a one-item list of assistants. */
async function checkKey(ctx: Context, apiKey: string, baseUrl: string): Promise<{ state: Check; detail?: string }> {
  const client = createClient({ apiKey, baseUrl, maxRetries: 0, timeoutMs: 15_000 });
  try {
    await client.assistant.list({ limit: 1 });
    return { state: 'valid' };
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return { state: 'rejected', detail: e.message };
    // Any other answer means the server is there and took the key.
    if (e instanceof ApiError) return { state: 'valid' };
    return { state: 'unreachable', detail: (e as Error).message };
  }
}

async function readKey(ctx: Context, withToken: boolean): Promise<string> {
  if (withToken) return (await readStdin()).trim();
  if (!canPrompt(ctx.opts.input)) {
    throw usageError('No terminal to ask for the key on.', 'Pipe it instead: `echo "$KEY" | voice login --with-token`.');
  }
  return (await readLine('Paste your API key (input hidden): ', true)).trim();
}

function loginCommand(): Command {
  return new Command('login')
    .description('Save an API key for a profile (asks for it on a terminal)')
    .option('--with-token', 'read the key from stdin')
    .addHelpText('after', '\nExamples:\n  $ voice login\n  $ echo "$VOICE_API_KEY" | voice login --with-token --profile ci\n  $ voice login --local --with-token < key.txt\n')
    .action(async (o: { withToken?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const key = await readKey(ctx, Boolean(o.withToken));
      if (!key) throw usageError('No key given.');
      if (/\s/.test(key)) throw usageError('The key contains whitespace; paste only the key.');
      addSecret(key);
      const s = ctx.settings();
      const check = await checkKey(ctx, key, s.baseUrl);
      if (check.state === 'rejected') throw new CliError(`The API at ${s.baseUrl} rejected this key (${check.detail}). Nothing was saved.`, ExitCode.Auth);
      await updateConfig(s.configPath, (config) => {
        const profile = { ...config.profiles[s.profile], apiKey: key };
        if (ctx.opts.apiUrl || ctx.opts.local) profile.baseUrl = s.baseUrl;
        return { ...config, profiles: { ...config.profiles, [s.profile]: profile } };
      });
      if (check.state === 'unreachable') err(`${yellow('!')} Could not reach ${s.baseUrl} to check the key (${check.detail}); saved it anyway.\n`);
      err(`${green('✓')} Logged in: profile "${s.profile}", key ${maskKey(key)}, saved to ${s.configPath}\n`);
    });
}

function logoutCommand(): Command {
  return new Command('logout')
    .description('Remove the saved key of a profile')
    .addHelpText('after', '\nExamples:\n  $ voice logout\n  $ voice logout --profile ci\n')
    .action(async (_o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const s = ctx.settings();
      if (!s.config.profiles[s.profile]?.apiKey) {
        err(`Not logged in: profile "${s.profile}" has no saved key.\n`);
        return;
      }
      await updateConfig(s.configPath, (config) => {
        const profiles = { ...config.profiles };
        const { apiKey: _gone, ...rest } = profiles[s.profile] ?? {};
        if (Object.keys(rest).length) profiles[s.profile] = rest;
        else delete profiles[s.profile];
        return { ...config, profiles };
      });
      err(`${green('✓')} Logged out: removed the key of profile "${s.profile}" from ${s.configPath}\n`);
    });
}

function statusCommand(): Command {
  return new Command('status')
    .description('Show the profile, base URL and key in use, and whether the key works')
    .addHelpText(
      'after',
      '\nExamples:\n  $ voice auth status\n  $ voice auth status --profile ci --json\n\nExit status: 0 when the key works, 4 when it is missing or rejected, 1 when the API cannot be reached.\n',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const s = resolveSettings(ctx.opts);
      const check = s.apiKey ? await checkKey(ctx, s.apiKey, s.baseUrl) : { state: 'missing' as const };
      const status = {
        profile: s.profile,
        baseUrl: s.baseUrl,
        baseUrlSource: s.urlSource,
        key: s.apiKey ? maskKey(s.apiKey) : null,
        keySource: s.keySource,
        keyWorks: check.state === 'valid' ? true : check.state === 'missing' || check.state === 'unreachable' ? null : false,
        state: check.state,
        configFile: s.configPath,
      };
      if (ctx.output.mode === 'json') printJson(status, ctx.output);
      else await printValue(status, [], ctx.output);
      if (check.state === 'missing') throw new CliError(`No API key for profile "${s.profile}".`, ExitCode.Auth, 'Run `voice login`, or set VOICE_API_KEY.');
      if (check.state === 'rejected') throw new CliError(`The key was rejected by ${s.baseUrl}.`, ExitCode.Auth, 'Run `voice login` with a valid key.');
      if (check.state === 'unreachable') throw new CliError(`Could not reach ${s.baseUrl}: ${'detail' in check ? check.detail : ''}`, ExitCode.Failure);
    });
}

/** The `login` command. */
export { loginCommand };
/** The `logout` command. */
export { logoutCommand };

/** The `auth` command group (`voice auth status`, plus login/logout aliases). */
export function authCommand(): Command {
  return new Command('auth')
    .description('Show and manage credentials')
    .addHelpText('after', '\nExamples:\n  $ voice auth status\n  $ voice auth login --with-token < key.txt\n  $ voice auth logout --profile ci\n')
    .addCommand(statusCommand())
    .addCommand(loginCommand())
    .addCommand(logoutCommand());
}
