// `voice demo build`: the demo page as static files for any host, configuration baked in.
// Thin: parse flags, resolve the page settings as `voice demo` does, build, print the result.
import { Command } from 'commander';
import { contextOf } from '../../context.js';
import { printJson } from '../../output/print.js';
import { err, out } from '../../redact.js';
import type { DemoFlags } from './config.js';

/** The flags of `voice demo build`: the page settings `voice demo` takes, and the output folder. */
export interface BuildFlags extends Pick<
  DemoFlags,
  'supabaseUrl' | 'supabaseAnonKey' | 'webhookUrl' | 'publicKey' | 'assistantId' | 'apiUrl' | 'sentryDsn' | 'strict' | 'captions' | 'sellerName' | 'sellerLogo'
> {
  out: string;
}

/**
 * The build's settings from the command line. `voice demo` defines the same page flags and
 * commander hands a flag to the first command that knows it, so the parent's values count too.
 */
export function buildFlagsOf(cmd: Command): BuildFlags {
  const all = { ...cmd.optsWithGlobals<BuildFlags>(), ...cmd.opts<BuildFlags>() };
  const { out, supabaseUrl, supabaseAnonKey, webhookUrl, publicKey, assistantId, apiUrl, sentryDsn, strict, sellerName, sellerLogo } = all;
  // --no-captions given to either command turns them off (a negatable flag defaults to true in both).
  const captions = ![cmd.opts<BuildFlags>(), cmd.parent?.opts<BuildFlags>()].some((o) => o?.captions === false);
  return { out, supabaseUrl, supabaseAnonKey, webhookUrl, publicKey, assistantId, apiUrl, sentryDsn, strict, captions, sellerName, sellerLogo };
}

/** The `voice demo build` command (registered under `voice demo`). */
export function demoBuildCommand(): Command {
  return new Command('build')
    .description('build the demo page as static files with its configuration baked in, for any static host')
    .option('--out <dir>', 'output directory (emptied first)', 'dist/demo')
    .option('--supabase-url <url>', 'hosted database URL (or VOICE_SUPABASE_URL)')
    .option('--supabase-anon-key <key>', 'hosted database anon key (or VOICE_SUPABASE_ANON_KEY)')
    .option('--webhook-url <url>', 'where Call Me posts { phone, slug } (or VOICE_WEBHOOK_URL)')
    .option('--public-key <key>', 'public key for Test in Browser (or VOICE_PUBLIC_KEY)')
    .option('--assistant-id <id>', 'assistant for browser calls (or VOICE_ASSISTANT_ID)')
    .option('--api-url <url>', 'platform API base URL for browser calls (env: VOICE_API_URL)')
    .option('--sentry-dsn <dsn>', 'error reporting DSN (or VOICE_SENTRY_DSN)')
    .option('--seller-name <name>', 'who is selling: the name in the header, footer and tab (or VOICE_SELLER_NAME)')
    .option('--seller-logo <file|url>', "the seller's logo, an image file or https address; also the tab icon (or VOICE_SELLER_LOGO)")
    .option('--strict', 'show Not found for an unknown slug instead of greeting "Visitor"')
    .option('--no-captions', 'no captions of the conversation during Test in Browser (or VOICE_CAPTIONS=off)')
    .option('--json', 'print the output directory and files as JSON')
    .addHelpText(
      'after',
      `
Serve the output from any static host that falls back to index.html for unknown paths, so
https://demo.example/<slug> opens the page for that visitor. The build includes 404.html (a copy
of index.html), _redirects (Netlify) and vercel.json (Vercel); for nginx use
  location / { try_files $uri /index.html; }
It also writes the page's security headers (Content-Security-Policy with the hashes of its inline
script, frame-ancestors 'none', Referrer-Policy, X-Content-Type-Options) for the hosts that read
them from files: _headers (Netlify, Cloudflare Pages), netlify.toml and vercel.json.

Examples:
  VOICE_SUPABASE_URL=https://abc.supabase.co VOICE_SUPABASE_ANON_KEY=... voice demo build
  voice demo build --out public --webhook-url https://hooks.example/call-me
  voice demo build --seller-name "Acme Voice" --seller-logo ./logo.svg
  voice demo build --no-captions`,
    )
    .action(async (_flags: BuildFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const flags = buildFlagsOf(cmd);
      const [{ resolveDemoConfig }, { buildDemo }] = await Promise.all([import('./config.js'), import('./build-run.js')]);
      const { out: outDir, ...pageFlags } = flags;
      const config = resolveDemoConfig(pageFlags);
      const secrets = [config.apiKey, process.env.VOICE_SUPABASE_SERVICE_ROLE_KEY ?? ''].filter(Boolean);
      const log = (line: string) => err(`${line}\n`);
      const result = await buildDemo({ outDir, page: config.page, secrets, log });
      if (ctx.output.mode === 'json') return printJson(result, ctx.output);
      out(`${result.outDir}\n`);
      log(`Built the demo page (${result.files.length} files). Deploy the folder to any static host; every path serves index.html.`);
    });
}
