// Where `voice demo` gets its settings: flags, then environment, then the CLI profile.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DemoConfig } from '../../web/src/config.js';

/** Flags of `voice demo` that carry configuration. */
export interface DemoFlags {
  supabaseUrl?: string;
  supabaseAnonKey?: string;
  webhookUrl?: string;
  publicKey?: string;
  assistantId?: string;
  apiUrl?: string;
  phoneNumberId?: string;
  sentryDsn?: string;
  strict?: boolean;
}

/** Everything the demo needs: what the page sees plus what only the server may know. */
export interface ResolvedDemoConfig {
  page: DemoConfig;
  /** Secret: used by the local webhook only, never sent to the page. */
  apiKey: string;
  /** Platform API base URL given by the user (empty = hosted default or the local emulator). */
  apiUrl: string;
  phoneNumberId: string;
  /** Where each setting came from, for the startup summary. */
  sources: Record<string, 'flag' | 'env' | 'profile'>;
}

/** The profile file the CLI keeps (`$XDG_CONFIG_HOME/voice/config.json`). */
export function profilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'voice', 'config.json');
}

/** The active profile's settings, or an empty object when there is no readable profile. */
export function readProfile(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(profilePath(env), 'utf8'));
  } catch {
    return {};
  }
  if (!isObject(data)) return {};
  const profiles = data.profiles;
  if (isObject(profiles)) {
    const name = env.VOICE_PROFILE || str(data.currentProfile) || str(data.current) || str(data.profile) || 'default';
    const chosen = profiles[name];
    return isObject(chosen) ? chosen : {};
  }
  return data;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Merges flags over `VOICE_*` environment variables over the CLI profile. */
export function resolveDemoConfig(flags: DemoFlags, env: NodeJS.ProcessEnv = process.env, profile: Record<string, unknown> = readProfile(env)): ResolvedDemoConfig {
  const sources: ResolvedDemoConfig['sources'] = {};
  const pick = (name: string, flag: string | undefined, envName: string, ...profileKeys: string[]): string => {
    if (flag) return (sources[name] = 'flag'), flag;
    if (env[envName]) return (sources[name] = 'env'), env[envName] as string;
    for (const key of profileKeys) {
      const v = str(profile[key]);
      if (v) return (sources[name] = 'profile'), v;
    }
    return '';
  };
  const page: DemoConfig = {
    supabaseUrl: pick('supabaseUrl', flags.supabaseUrl, 'VOICE_SUPABASE_URL', 'supabaseUrl'),
    supabaseAnonKey: pick('supabaseAnonKey', flags.supabaseAnonKey, 'VOICE_SUPABASE_ANON_KEY', 'supabaseAnonKey'),
    webhookUrl: pick('webhookUrl', flags.webhookUrl, 'VOICE_WEBHOOK_URL', 'webhookUrl'),
    publicKey: pick('publicKey', flags.publicKey, 'VOICE_PUBLIC_KEY', 'publicKey'),
    assistantId: pick('assistantId', flags.assistantId, 'VOICE_ASSISTANT_ID', 'assistantId'),
    apiBaseUrl: '',
    sentryDsn: pick('sentryDsn', flags.sentryDsn, 'VOICE_SENTRY_DSN', 'sentryDsn'),
    strict: Boolean(flags.strict),
    links: {
      linkedin: pick('linkedin', undefined, 'VOICE_LINK_LINKEDIN', 'linkLinkedin'),
      website: pick('website', undefined, 'VOICE_LINK_WEBSITE', 'linkWebsite'),
      twitter: pick('twitter', undefined, 'VOICE_LINK_TWITTER', 'linkTwitter'),
    },
  };
  const apiUrl = pick('apiUrl', flags.apiUrl, 'VOICE_API_URL', 'baseUrl', 'apiUrl');
  page.apiBaseUrl = apiUrl;
  return {
    page,
    apiKey: pick('apiKey', undefined, 'VOICE_API_KEY', 'apiKey'),
    apiUrl,
    phoneNumberId: pick('phoneNumberId', flags.phoneNumberId, 'VOICE_PHONE_NUMBER_ID', 'phoneNumberId'),
    sources,
  };
}
