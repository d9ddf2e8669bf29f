// `voice demo`: serves the personalised demo page locally. Thin: parse flags, start the
// server (loaded lazily, with Vite), print the URL, stop cleanly on Ctrl-C.
import { Command, InvalidArgumentError, Option } from 'commander';

/** Parses a TCP port flag (0 = any free port). */
function portFlag(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return n;
}

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
  apiUrl?: string;
  phoneNumberId?: string;
  sentryDsn?: string;
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
    .addOption(new Option('--api-url <url>', 'platform API base URL').env('VOICE_API_URL'))
    .addOption(new Option('--phone-number-id <id>', 'platform phone number Call Me calls from').env('VOICE_PHONE_NUMBER_ID'))
    .addOption(new Option('--sentry-dsn <dsn>', 'error reporting DSN for the page').env('VOICE_SENTRY_DSN'))
    .addHelpText(
      'after',
      '\nWithout a hosted database the page reads ./visitors.json (or the bundled sample); without a\n' +
        'webhook URL, Call Me places the call through VOICE_API_KEY on the hosted platform, else on a\n' +
        'local emulator at http://127.0.0.1:4010 (see `voice call list --local`).\n\n' +
        'Examples:\n  voice demo --slug acme --open\n  voice demo --visitors prospects.json --strict --port 8080',
    )
    .action(async (opts: DemoCliOptions) => {
      const { startDemo } = await import('./demo-server.js');
      const { slug, port, host, open, visitors, ...flags } = opts;
      const demo = await startDemo({ slug, port, host, open, visitors, flags });
      const target = demo.callTarget;
      process.stderr.write(
        `Demo page for "${slug}" (Ctrl-C to stop):\n` +
          (target ? `Call Me places calls via ${target.baseUrl}${target.baseUrl.startsWith('http://127.0.0.1') ? ' (local emulator)' : ''}\n` : '') +
          (demo.config.page.publicKey && demo.config.page.assistantId ? '' : 'Test in Browser needs VOICE_PUBLIC_KEY and VOICE_ASSISTANT_ID.\n'),
      );
      process.stdout.write(`${demo.url}\n`);
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
