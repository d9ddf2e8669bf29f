// The config file: one JSON file of named profiles, read once per run; changed only through a
// locked read-modify-write (two `voice login` at once keep both profiles), written atomically
// with owner-only permissions (file 0600, folder 0700).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, ExitCode } from './errors.js';
import { parseJsonText } from './json-text.js';

/** One named set of credentials. */
export interface Profile {
  apiKey?: string;
  baseUrl?: string;
}

/** The whole config file. */
export interface ConfigFile {
  profiles: Record<string, Profile>;
}

/** Where the config file lives: `$XDG_CONFIG_HOME/voice/config.json`, else `~/.config/voice/`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'voice', 'config.json');
}

/** Reads the config file; a missing file is an empty config, a broken one a usage error. */
export function readConfig(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { profiles: {} };
  }
  return configFromValue(parseJsonText(text, path));
}

function configFromValue(value: unknown): ConfigFile {
  const v = value as Partial<ConfigFile> | null | undefined;
  const profiles = v && typeof v === 'object' && v.profiles && typeof v.profiles === 'object' ? v.profiles : {};
  return { ...(v && typeof v === 'object' ? v : {}), profiles };
}

/**
 * Changes the config file under its cross-process lock: `fn` gets the file as it is now (not as
 * it was when this run started) and returns the new config, written atomically (folder 0700, file 0600).
 */
export async function updateConfig(path: string, fn: (config: ConfigFile) => ConfigFile): Promise<ConfigFile> {
  // The lock library is loaded only here: commands that merely read the config never pay for it.
  const { updateJsonFile, FileLockedError } = await import('#core/fs/locked-json');
  try {
    return await updateJsonFile<ConfigFile>(path, (current) => fn(configFromValue(current)), {
      parse: (text) => configFromValue(parseJsonText(text, path)),
      mode: 0o600,
      dirMode: 0o700,
    });
  } catch (err) {
    if (err instanceof FileLockedError)
      throw new CliError(`${path} stayed locked by another voice process; nothing was saved.`, ExitCode.Failure, `If no other voice command is running, remove ${path}.lock and try again.`);
    if (err instanceof CliError) throw err;
    throw new CliError(`Cannot write ${path}: ${(err as Error).message}`, ExitCode.Failure);
  }
}
