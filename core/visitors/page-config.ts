// The demo page's runtime configuration: one shape, read from one place, shared by the page and
// the CLI that serves or builds it. `voice demo` injects it as `window.__VOICE_CONFIG__` before the entry
// script runs; a static build bakes in the same script, so the page has a single code path for both.
import { DEFAULT_SELLER } from './seller.js';

/** Everything the demo page can be configured with. */
export interface DemoConfig {
  /** Hosted database URL (PostgREST lives at `<url>/rest/v1`); empty = this page's origin. */
  supabaseUrl: string;
  /** Anonymous key sent as `apikey` and bearer token to the database. */
  supabaseAnonKey: string;
  /** Where "Call Me" posts `{ phone, slug }`. */
  webhookUrl: string;
  /** Public key for browser calls. */
  publicKey: string;
  /** Assistant the browser call talks to. */
  assistantId: string;
  /** Platform API base URL for browser calls; empty = the web-call client's default. */
  apiBaseUrl: string;
  /** True when browser calls run on a local emulator (`voice demo` without keys): daily-js is never loaded. */
  localCalls: boolean;
  /** True when the local Call Me webhook places calls on a local emulator: the page then says where a call went. */
  localPlatform: boolean;
  /** Error-reporting DSN; empty = error reporting off (and never loaded). */
  sentryDsn: string;
  /** Captions of the conversation during a browser call (on by default; `--no-captions` or VOICE_CAPTIONS=off). */
  captions: boolean;
  /** When true an unknown slug shows the Not found screen instead of the 'Visitor' fallback. */
  strict: boolean;
  /** Who is selling: the name and logo (an image URL, often a data: URL) in the header, footer and tab. */
  seller: { name: string; logo: string };
  /** Footer links; empty ones are not shown. */
  links: { linkedin: string; website: string; twitter: string };
}

/** The values used for anything not configured. */
export const defaultConfig: DemoConfig = {
  supabaseUrl: '',
  supabaseAnonKey: '',
  webhookUrl: '/__voice/call-me',
  publicKey: '',
  assistantId: '',
  apiBaseUrl: '',
  localCalls: false,
  localPlatform: false,
  sentryDsn: '',
  captions: true,
  strict: false,
  seller: { ...DEFAULT_SELLER },
  links: { linkedin: '', website: '', twitter: '' },
};

declare global {
  interface Window {
    __VOICE_CONFIG__?: Partial<DemoConfig>;
  }
}

/** Merges the injected configuration over the defaults. */
export function readConfig(injected: Partial<DemoConfig> | undefined = globalThis.window?.__VOICE_CONFIG__): DemoConfig {
  const c = injected ?? {};
  const seller = { name: c.seller?.name || defaultConfig.seller.name, logo: c.seller?.logo || defaultConfig.seller.logo };
  return { ...defaultConfig, ...c, seller, links: { ...defaultConfig.links, ...c.links } };
}

/**
 * What `voice demo` tells the page about a call on a local emulator (never on the hosted platform):
 * the Call Me webhook's answer carries it as `local`, the local assistant's as `local` too.
 */
export interface LocalCallInfo {
  /** The emulator's address. */
  emulator: string;
  /** The emulator serves the inspector, where the call can be seen. */
  inspector: boolean;
  /** No model runs the assistant: the conversation is scripted. */
  scripted: boolean;
  /** The terminal command that follows a placed call. */
  watch?: string;
}

/** Where a page served by `voice demo` asks for the demo's assistant on the local emulator (a GET; `{ assistantId, local }`). */
export const LOCAL_ASSISTANT_PATH = '/__voice/local-assistant';

/** The name of the global the server sets; keep in sync with `configScript`. */
export const CONFIG_GLOBAL = '__VOICE_CONFIG__';

/** An inline `<script>` body that sets the configuration, safe to embed in HTML. */
export function configScript(config: Partial<DemoConfig>): string {
  // `<` escaped so a value can never close the script element.
  const json = JSON.stringify(config)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `window.${CONFIG_GLOBAL}=${json};`;
}
