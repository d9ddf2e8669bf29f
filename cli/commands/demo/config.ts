// Where `voice demo` gets its settings: flags, then environment, then the CLI profile.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isObject } from '#core/json';
import type { DemoConfig } from '#core/visitors/page-config';
import { resolveSettings } from '../../settings.js';
import { logoSource } from './seller.js';

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
  /** Who is selling: the name, and a logo file or image address (header, footer, tab icon). */
  sellerName?: string;
  sellerLogo?: string;
  /** False with `--no-captions`: no captions during a browser call. */
  captions?: boolean;
  /** The CLI's global `--api-key`, `--profile` and `--local`. */
  apiKey?: string;
  profile?: string;
  /** Place Call Me calls on the local emulator even when an API key is configured. */
  local?: boolean;
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
export function readProfile(env: NodeJS.ProcessEnv = process.env, name?: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(profilePath(env), 'utf8'));
  } catch {
    return {};
  }
  if (!isObject(data)) return {};
  const profiles = data.profiles;
  if (isObject(profiles)) {
    const chosen = profiles[name || env.VOICE_PROFILE || 'default'];
    return isObject(chosen) ? chosen : {};
  }
  return data;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** VOICE_CAPTIONS=off (or 0, false, no) turns the captions off; anything else leaves them on. */
export function captionsOff(value: string | undefined): boolean {
  return /^(off|0|false|no)$/i.test((value ?? '').trim());
}

/** Merges flags over `VOICE_*` environment variables over the CLI profile. */
export function resolveDemoConfig(flags: DemoFlags, env: NodeJS.ProcessEnv = process.env, profile: Record<string, unknown> = readProfile(env, flags.profile)): ResolvedDemoConfig {
  const sources: ResolvedDemoConfig['sources'] = {};
  const pick = (name: string, flag: string | undefined, envName: string, ...profileKeys: string[]): string => {
    if (flag) return ((sources[name] = 'flag'), flag);
    if (env[envName]) return ((sources[name] = 'env'), env[envName] as string);
    for (const key of profileKeys) {
      const v = str(profile[key]);
      if (v) return ((sources[name] = 'profile'), v);
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
    localCalls: false,
    localPlatform: false,
    sentryDsn: pick('sentryDsn', flags.sentryDsn, 'VOICE_SENTRY_DSN', 'sentryDsn'),
    strict: Boolean(flags.strict),
    captions: flags.captions !== false && !captionsOff(env.VOICE_CAPTIONS),
    seller: {
      name: pick('sellerName', flags.sellerName, 'VOICE_SELLER_NAME', 'sellerName').trim(),
      logo: logoSource(pick('sellerLogo', flags.sellerLogo, 'VOICE_SELLER_LOGO', 'sellerLogo')),
    },
    links: {
      linkedin: pick('linkedin', undefined, 'VOICE_LINK_LINKEDIN', 'linkLinkedin'),
      website: pick('website', undefined, 'VOICE_LINK_WEBSITE', 'linkWebsite'),
      twitter: pick('twitter', undefined, 'VOICE_LINK_TWITTER', 'linkTwitter'),
    },
  };
  // Key and API URL resolve exactly as for every other command (VAPI_API_KEY, profiles...).
  let apiKey = '';
  let apiUrl = '';
  if (!flags.local) {
    const settings = resolveSettings({ apiKey: flags.apiKey, apiUrl: flags.apiUrl, profile: flags.profile }, env);
    apiKey = settings.apiKey ?? '';
    if (settings.urlSource !== 'default') apiUrl = settings.baseUrl;
  }
  page.apiBaseUrl = apiUrl;
  return {
    page,
    apiKey,
    apiUrl,
    phoneNumberId: pick('phoneNumberId', flags.phoneNumberId, 'VOICE_PHONE_NUMBER_ID', 'phoneNumberId'),
    sources,
  };
}
