// The config file: one JSON file of named profiles, read once per run and written atomically
// with owner-only permissions (file 0600, folder 0700).
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
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
  const value = parseJsonText(text, path) as Partial<ConfigFile> | null;
  const profiles = value && typeof value === 'object' && value.profiles && typeof value.profiles === 'object' ? value.profiles : {};
  return { profiles };
}

/** Writes the config file atomically, the folder 0700 and the file 0600. */
export function writeConfig(path: string, config: ConfigFile): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
