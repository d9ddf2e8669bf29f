// What `voice demo` does once its command line is parsed: start the server (loaded lazily, with
// Vite), print the URL, stop cleanly on Ctrl-C. No commander here.
import { err, out } from '../../redact.js';
import { localFlags } from '#core/hosts';
import type { DemoCliOptions } from './options.js';
import type { DemoServer } from './server.js';

/** The program's global options `voice demo` reads. */
export interface DemoGlobals {
  apiKey?: string;
  profile?: string;
  local?: boolean;
}

/** Where the demo's local platform runs (its port beside the page's) and how to see its calls, or nothing for the hosted platform. */
export function platformLines(demo: Pick<DemoServer, 'emulator' | 'origin'>): string {
  const emu = demo.emulator;
  if (!emu) return '';
  const where = emu.started
    ? `an emulator this demo runs on ${emu.url} (port ${new URL(emu.url).port}, beside the page's ${new URL(demo.origin).port}; it stops with the demo)`
    : `the emulator at ${emu.url}`;
  return `Local platform: ${where}\n  Calls:     voice call list ${localFlags(emu.url)}\n${emu.inspector ? `  Inspector: ${emu.url}/__voice/inspector/\n` : ''}`;
}

/** Serves the demo until Ctrl-C (or SIGTERM). */
export async function runDemo(opts: DemoCliOptions, globals: DemoGlobals): Promise<void> {
  const { startDemo } = await import('./server.js');
  const { slug, port, host, open, visitors, ...flags } = opts;
  const { apiKey, profile, local } = globals;
  // VOICE_DEMO_EMULATOR_PORT moves the port the demo's own emulator prefers (4010).
  const emulatorPort = Number(process.env.VOICE_DEMO_EMULATOR_PORT) || undefined;
  const demo = await startDemo({ slug, port, host, open, visitors, ...(emulatorPort ? { emulatorPort } : {}), flags: { ...flags, apiKey, profile, local } });
  const target = demo.callTarget;
  err(
    `Demo page for "${slug}" (Ctrl-C to stop):\n` +
      platformLines(demo) +
      (target
        ? `Call Me places calls via ${target.baseUrl}${demo.localEmulator ? " (local emulator, so no phone rings; the demo's assistant with each visitor's first message and system prompt)" : ''}\n`
        : '') +
      (demo.localBrowserCalls
        ? `Test in Browser runs on the local emulator at ${demo.localBrowserCalls} (set VOICE_PUBLIC_KEY and VOICE_ASSISTANT_ID for the hosted platform).\n`
        : demo.config.page.publicKey && demo.config.page.assistantId
          ? ''
          : 'Test in Browser needs VOICE_PUBLIC_KEY and VOICE_ASSISTANT_ID.\n') +
      (demo.config.page.seller.name ? '' : 'The page names "Voice" as the seller: set --seller-name and --seller-logo (or VOICE_SELLER_NAME and VOICE_SELLER_LOGO).\n') +
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
}
