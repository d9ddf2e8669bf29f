// `voice demo`: serves the personalised demo page locally. Thin: parse flags, start the
// server (loaded lazily, with Vite), print the URL, stop cleanly on Ctrl-C.
import { Command, Option } from 'commander';
import { err, out } from '../redact.js';
import { demoBuildCommand } from './demo-build.js';
import { portFlag } from '../webhook/flags.js';

interface DemoCliOptions {
  slug: string;
  port: number;
  host: string;
  open?: boolean;
  strict?: boolean;
  visitors?: string;
  supabaseUrl?: string;
  supabaseAnonKey?: string;
  webhookUrl?: string;
  publicKey?: string;
  assistantId?: string;
  phoneNumberId?: string;
  sentryDsn?: string;
  captions?: boolean;
}

/** The `voice demo` command. */
export function demoCommand(): Command {
  return new Command('demo')
    .description('Serve the personalised demo page locally (visitors and Call Me work offline)')
    .option('--slug <slug>', 'visitor to open', 'default')
    .option('--port <port>', 'port to serve on (0 = any free port)', portFlag, 5173)
    .option('--host <host>', 'address to bind (loopback unless you say otherwise)', '127.0.0.1')
    .option('--open', 'open the page in your browser')
    .option('--strict', 'show Not found for an unknown slug instead of greeting "Visitor"')
    .option('--visitors <file>', 'visitors JSON file (default: ./visitors.json, else the bundled sample)')
    .addOption(new Option('--supabase-url <url>', 'hosted database URL').env('VOICE_SUPABASE_URL'))
    .addOption(new Option('--supabase-anon-key <key>', 'hosted database anon key').env('VOICE_SUPABASE_ANON_KEY'))
    .addOption(new Option('--webhook-url <url>', 'Call Me webhook (default: a local one)').env('VOICE_WEBHOOK_URL'))
    .addOption(new Option('--public-key <key>', 'public key for Test in Browser').env('VOICE_PUBLIC_KEY'))
    .addOption(new Option('--assistant-id <id>', 'assistant for calls').env('VOICE_ASSISTANT_ID'))
    .option('--api-url <url>', 'platform API base URL for Call Me and browser calls (env: VOICE_API_URL)')
    .addOption(new Option('--phone-number-id <id>', 'platform phone number Call Me calls from').env('VOICE_PHONE_NUMBER_ID'))
    .addOption(new Option('--sentry-dsn <dsn>', 'error reporting DSN for the page').env('VOICE_SENTRY_DSN'))
    .option('--no-captions', 'no captions of the conversation during Test in Browser (or VOICE_CAPTIONS=off)')
    .addHelpText(
      'after',
      `
Without a hosted database the page reads ./visitors.json (or the bundled sample). Without a
webhook URL, Call Me places the call through the platform API: with your API key (--api-key,
VOICE_API_KEY or the profile) on the hosted platform, else (or with --local) on a local emulator
at http://127.0.0.1:4010, so \`voice call list --local\` shows the calls. Without a public key and
assistant id, Test in Browser also runs on that emulator (or the one --api-url names): a real
call in the browser, the assistant heard, the microphone as the customer, no internet needed.

Examples:
  voice demo --slug acme --open
  voice demo --visitors prospects.json --strict --port 8080
  voice demo --slug acme --no-captions
  VOICE_PUBLIC_KEY=... VOICE_ASSISTANT_ID=... voice demo --slug acme`,
    )
    .addCommand(demoBuildCommand())
    .action(async (opts: DemoCliOptions, cmd: Command) => {
      const { startDemo } = await import('./demo-server.js');
      // --api-key, --profile and --local are the program's global options; --api-url is ours (the
      // program leaves a flag to the command that defines it) but read the same way.
      const globals = cmd.optsWithGlobals<{ apiKey?: string; apiUrl?: string; profile?: string; local?: boolean }>();
      const { slug, port, host, open, visitors, ...flags } = opts;
      const { apiKey, apiUrl, profile, local } = globals;
      const demo = await startDemo({ slug, port, host, open, visitors, flags: { ...flags, apiKey, apiUrl, profile, local } });
      const target = demo.callTarget;
      err(
        `Demo page for "${slug}" (Ctrl-C to stop):\n` +
          (target ? `Call Me places calls via ${target.baseUrl}${demo.localEmulator ? ' (local emulator)' : ''}\n` : '') +
          (demo.localBrowserCalls
            ? `Test in Browser runs on the local emulator at ${demo.localBrowserCalls} (set VOICE_PUBLIC_KEY and VOICE_ASSISTANT_ID for the hosted platform).\n`
            : demo.config.page.publicKey && demo.config.page.assistantId
              ? ''
              : 'Test in Browser needs VOICE_PUBLIC_KEY and VOICE_ASSISTANT_ID.\n') +
          (Object.values(demo.config.page.links).some(Boolean) ? '' : 'The footer has no links: set VOICE_LINK_LINKEDIN, VOICE_LINK_WEBSITE or VOICE_LINK_TWITTER.\n'),
      );
      out(`${demo.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop).off('SIGTERM', stop);
          // A second Ctrl-C while closing exits at once.
          process.once('SIGINT', () => process.exit(130));
          void demo.close().then(resolve, resolve);
        };
        process.once('SIGINT', stop).once('SIGTERM', stop);
      });
    });
}
