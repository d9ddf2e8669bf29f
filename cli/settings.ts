// Who we talk to and with which key: flags beat environment variables, which beat the profile.
import { EMULATOR_URL, PLATFORM_API } from '#core/hosts';
import { CliError, ExitCode, usageError } from './errors.js';
import { configPath, readConfig } from './config.js';
import type { ConfigFile } from './config.js';
import { addSecret } from './redact.js';

/** The platform's hosted API. */
export const DEFAULT_BASE_URL = PLATFORM_API;
/** Where `voice dev` serves the emulator and `--local` points. */
export const LOCAL_BASE_URL = EMULATOR_URL;
/** Sent with `--local` when no key is configured: the emulator accepts any bearer by default. */
export const LOCAL_DUMMY_KEY = 'local-emulator-key';

/** Options every command accepts (defined on the root command). */
export interface GlobalOptions {
  json?: boolean;
  profile?: string;
  local?: boolean;
  apiKey?: string;
  apiUrl?: string;
  dryRun?: boolean;
  yes?: boolean;
  input?: boolean;
  color?: boolean;
  verbose?: boolean;
}

/** The resolved connection settings of a run. */
export interface Settings {
  profile: string;
  apiKey: string | undefined;
  /** Where the key came from, e.g. `VOICE_API_KEY` or `profile "default"`. */
  keySource: string;
  baseUrl: string;
  urlSource: string;
  configPath: string;
  config: ConfigFile;
}

const KEY_VARS = ['VOICE_API_KEY', 'VAPI_API_KEY', 'VAPI_TOKEN'] as const;

/** The profile name in use: `--profile`, else `VOICE_PROFILE`, else `default`. */
export function profileName(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string {
  const name = opts.profile ?? env.VOICE_PROFILE ?? 'default';
  if (!/^[\w.-]{1,64}$/.test(name)) throw usageError(`Bad profile name "${name}": use letters, digits, dot, dash or underscore`);
  return name;
}

/** Checks and normalises a base URL (no trailing slash). */
export function normaliseUrl(url: string, source: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`Bad API URL from ${source}: "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw usageError(`Bad API URL from ${source}: use http or https`);
  return url.replace(/\/+$/, '');
}

/** Resolves profile, key and base URL from flags, environment and the config file. */
export function resolveSettings(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Settings {
  const profile = profileName(opts, env);
  const path = configPath(env);
  const config = readConfig(path);
  const stored = config.profiles[profile] ?? {};
  // An explicit --profile is a flag, so the profile's own values beat the environment.
  const explicitProfile = opts.profile !== undefined;
  const label = `profile "${profile}"`;

  let apiKey: string | undefined;
  let keySource = 'none';
  const envKeyVar = KEY_VARS.find((v) => env[v]?.trim());
  if (opts.apiKey) [apiKey, keySource] = [opts.apiKey, '--api-key'];
  else if (explicitProfile && stored.apiKey) [apiKey, keySource] = [stored.apiKey, label];
  else if (envKeyVar) [apiKey, keySource] = [(env[envKeyVar] as string).trim(), envKeyVar];
  else if (stored.apiKey) [apiKey, keySource] = [stored.apiKey, label];

  let baseUrl = DEFAULT_BASE_URL;
  let urlSource = 'default';
  // An explicit --api-url names the URL even with --local (`voice dev --port N`); --local still
  // beats the environment and the profile, and still supplies its placeholder key below.
  if (opts.apiUrl) [baseUrl, urlSource] = [opts.apiUrl, '--api-url'];
  else if (opts.local) [baseUrl, urlSource] = [LOCAL_BASE_URL, '--local'];
  else if (explicitProfile && stored.baseUrl) [baseUrl, urlSource] = [stored.baseUrl, label];
  else if (env.VOICE_API_URL?.trim()) [baseUrl, urlSource] = [env.VOICE_API_URL.trim(), 'VOICE_API_URL'];
  else if (stored.baseUrl) [baseUrl, urlSource] = [stored.baseUrl, label];
  baseUrl = normaliseUrl(baseUrl, urlSource);

  if (!apiKey && opts.local) [apiKey, keySource] = [LOCAL_DUMMY_KEY, '--local (placeholder key)'];
  addSecret(apiKey);
  return { profile, apiKey, keySource, baseUrl, urlSource, configPath: path, config };
}

/** The key of the resolved settings, or exit 4 with a message saying how to provide one. */
export function requireKey(s: Settings): string {
  if (s.apiKey) return s.apiKey;
  throw new CliError(`No API key for profile "${s.profile}".`, ExitCode.Auth, 'Run `voice login`, or set VOICE_API_KEY (`--local` needs no key when talking to `voice dev`).');
}
