// The options of `voice demo`, as data: demo.ts makes commander's options from them, and run.ts
// takes what commander parsed. No commander here.

/** One option of `voice demo`. */
export interface DemoOption {
  /** As commander writes it: `--slug <slug>`, `--open`, `--no-captions`. */
  flags: string;
  description: string;
  /** The option's key in the parsed options (camelCase; `captions` for `--no-captions`). */
  key: keyof DemoCliOptions;
  /** The option's value when the flag is absent (commander's default). */
  default?: string | number;
  /** An environment variable the value comes from when the flag is absent (resolveDemoConfig reads it too). */
  env?: string;
  /** The value is a port (portFlag). */
  port?: boolean;
}

/** What `voice demo` parses, before the program's global options. */
export interface DemoCliOptions {
  slug: string;
  port: number;
  host: string;
  open?: boolean;
  strict?: boolean;
  visitors?: string;
  apiUrl?: string;
  supabaseUrl?: string;
  supabaseAnonKey?: string;
  webhookUrl?: string;
  publicKey?: string;
  assistantId?: string;
  phoneNumberId?: string;
  sentryDsn?: string;
  sellerName?: string;
  sellerLogo?: string;
  captions?: boolean;
}

export const DEMO_OPTIONS: readonly DemoOption[] = [
  { flags: '--slug <slug>', description: 'visitor to open', key: 'slug', default: 'default' },
  { flags: '--port <port>', description: 'port to serve on (0 = any free port)', key: 'port', default: 5173, port: true },
  { flags: '--host <host>', description: 'address to bind (loopback unless you say otherwise)', key: 'host', default: '127.0.0.1' },
  { flags: '--open', description: 'open the page in your browser', key: 'open' },
  { flags: '--strict', description: 'show Not found for an unknown slug instead of greeting "Visitor"', key: 'strict' },
  { flags: '--visitors <file>', description: 'visitors JSON file (default: ./visitors.json, else the bundled sample)', key: 'visitors' },
  { flags: '--supabase-url <url>', description: 'hosted database URL', key: 'supabaseUrl', env: 'VOICE_SUPABASE_URL' },
  { flags: '--supabase-anon-key <key>', description: 'hosted database anon key', key: 'supabaseAnonKey', env: 'VOICE_SUPABASE_ANON_KEY' },
  { flags: '--webhook-url <url>', description: 'Call Me webhook (default: a local one)', key: 'webhookUrl', env: 'VOICE_WEBHOOK_URL' },
  { flags: '--public-key <key>', description: 'public key for Test in Browser', key: 'publicKey', env: 'VOICE_PUBLIC_KEY' },
  { flags: '--assistant-id <id>', description: 'assistant for calls', key: 'assistantId', env: 'VOICE_ASSISTANT_ID' },
  { flags: '--api-url <url>', description: 'platform API base URL for Call Me and browser calls (env: VOICE_API_URL)', key: 'apiUrl' },
  { flags: '--phone-number-id <id>', description: 'platform phone number Call Me calls from', key: 'phoneNumberId', env: 'VOICE_PHONE_NUMBER_ID' },
  { flags: '--sentry-dsn <dsn>', description: 'error reporting DSN for the page', key: 'sentryDsn', env: 'VOICE_SENTRY_DSN' },
  { flags: '--seller-name <name>', description: 'who is selling: the name in the header, footer and tab', key: 'sellerName', env: 'VOICE_SELLER_NAME' },
  { flags: '--seller-logo <file|url>', description: "the seller's logo (an image file or https address; also the tab icon)", key: 'sellerLogo', env: 'VOICE_SELLER_LOGO' },
  { flags: '--no-captions', description: 'no captions of the conversation during Test in Browser (or VOICE_CAPTIONS=off)', key: 'captions' },
];
