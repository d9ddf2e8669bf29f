// Which visitors store `voice visitor` talks to, and how its failures become CLI exit codes.
import { configPath, readConfig } from '../../config.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { profileName } from '../../settings.js';
import { DEFAULT_VISITORS_FILE, FileVisitorStore, VisitorError, createHostedVisitorStore } from '#core/visitors/index';
import type { VisitorStore } from '#core/visitors/index';

/** Flags shared by every `voice visitor` subcommand that choose the store. */
export interface StoreFlags {
  /** The CLI profile to read settings from (global `--profile`). */
  profile?: string;
  /** Local visitors file (default `./visitors.json`). */
  visitors?: string;
  /** Use the local file even when the hosted table is configured. */
  local?: boolean;
}

/** Where visitors live and where their pages are, after flags, environment and profile. */
export interface VisitorSettings {
  /** The local file, as the user would write it (for messages). */
  file: string;
  supabaseUrl: string;
  serviceRoleKey: string;
  /** Base URL of the demo page; a visitor's page is `<demoUrl>/<slug>`. */
  demoUrl: string;
}

/** The demo page address `voice demo` serves by default. */
export const DEFAULT_DEMO_URL = 'http://127.0.0.1:5173';

/** The active CLI profile's settings (the config file the rest of the CLI uses). */
export function profileSettings(flags: StoreFlags, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  return (readConfig(configPath(env)).profiles[profileName(flags, env)] ?? {}) as Record<string, unknown>;
}

/**
 * Resolves settings: flag, then `VOICE_*` environment, then the CLI profile, then defaults; as
 * elsewhere in the CLI, an explicit `--profile` beats the environment.
 */
export function resolveVisitorSettings(flags: StoreFlags, env: NodeJS.ProcessEnv = process.env, profile: Record<string, unknown> = profileSettings(flags, env)): VisitorSettings {
  const fromProfile = (key: string): string => (typeof profile[key] === 'string' ? (profile[key] as string) : '');
  const pick = (envName: string, key: string): string => (flags.profile ? fromProfile(key) || env[envName] || '' : env[envName] || fromProfile(key));
  return {
    file: flags.visitors || pick('VOICE_VISITORS_FILE', 'visitorsFile') || `./${DEFAULT_VISITORS_FILE}`,
    supabaseUrl: pick('VOICE_SUPABASE_URL', 'supabaseUrl'),
    serviceRoleKey: pick('VOICE_SUPABASE_SERVICE_ROLE_KEY', 'supabaseServiceRoleKey'),
    demoUrl: pick('VOICE_DEMO_URL', 'demoUrl') || DEFAULT_DEMO_URL,
  };
}

/** Opens the hosted store when both URL and service-role key are set (and `--local` is not), else the file. */
export async function openVisitorStore(settings: VisitorSettings, flags: StoreFlags, warn: (line: string) => void): Promise<VisitorStore> {
  if (!flags.local && settings.supabaseUrl && settings.serviceRoleKey) {
    return createHostedVisitorStore({ url: settings.supabaseUrl, serviceRoleKey: settings.serviceRoleKey }).catch((err: unknown) => {
      throw toCliError(err);
    });
  }
  if (!flags.local && settings.supabaseUrl) {
    warn(`Using the local file ${settings.file}: VOICE_SUPABASE_URL is set but VOICE_SUPABASE_SERVICE_ROLE_KEY is not, so the hosted table is not managed.`);
  }
  return new FileVisitorStore(settings.file);
}

const EXIT_BY_KIND = {
  invalid: ExitCode.Usage,
  corrupt: ExitCode.Usage,
  'not-found': ExitCode.Failure,
  exists: ExitCode.Failure,
  auth: ExitCode.Auth,
  store: ExitCode.Failure,
} as const;

/** Maps a VisitorError to the CLI's error with the documented exit code; other errors pass through. */
export function toCliError(err: unknown): unknown {
  if (err instanceof VisitorError) {
    return err.kind === 'invalid' ? usageError(err.message, err.hint) : new CliError(err.message, EXIT_BY_KIND[err.kind], err.hint);
  }
  return err;
}
