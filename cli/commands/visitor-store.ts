// Which visitors store `voice visitor` talks to, and how its failures become CLI exit codes.
import { CliError, ExitCode, usageError } from '../errors.js';
import { readProfile } from './demo-config.js';
import { DEFAULT_VISITORS_FILE, FileVisitorStore, VisitorError, createHostedVisitorStore } from '../../core/visitors/index.js';
import type { VisitorStore } from '../../core/visitors/index.js';

/** Flags shared by every `voice visitor` subcommand that choose the store. */
export interface StoreFlags {
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

/** Resolves settings: flag, then `VOICE_*` environment, then the CLI profile, then defaults. */
export function resolveVisitorSettings(
  flags: StoreFlags,
  env: NodeJS.ProcessEnv = process.env,
  profile: Record<string, unknown> = readProfile(env),
): VisitorSettings {
  const fromProfile = (key: string): string => (typeof profile[key] === 'string' ? (profile[key] as string) : '');
  return {
    file: flags.visitors || env.VOICE_VISITORS_FILE || fromProfile('visitorsFile') || `./${DEFAULT_VISITORS_FILE}`,
    supabaseUrl: env.VOICE_SUPABASE_URL || fromProfile('supabaseUrl'),
    serviceRoleKey: env.VOICE_SUPABASE_SERVICE_ROLE_KEY || fromProfile('supabaseServiceRoleKey'),
    demoUrl: env.VOICE_DEMO_URL || fromProfile('demoUrl') || DEFAULT_DEMO_URL,
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
