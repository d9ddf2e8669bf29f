// `voice demo`: serves the personalised demo page locally. Thin: its options (cli/commands/demo/options.ts)
// as commander's, and the run itself (cli/commands/demo/run.ts, loaded lazily).
import { Command, Option } from 'commander';
import { demoBuildCommand } from './build.js';
import { DEMO_OPTIONS, type DemoCliOptions } from './options.js';
import { portFlag } from '../../webhook/flags.js';

/** The `voice demo` command. */
export function demoCommand(): Command {
  const command = new Command('demo').description('Serve the personalised demo page locally (visitors and Call Me work offline)');
  for (const o of DEMO_OPTIONS) {
    const option = new Option(o.flags, o.description);
    if (o.default !== undefined) option.default(o.default);
    if (o.env) option.env(o.env);
    if (o.port) option.argParser(portFlag);
    command.addOption(option);
  }
  return command
    .addHelpText(
      'after',
      `
Without a hosted database the page reads ./visitors.json (or the bundled sample). Without a
webhook URL, Call Me places the call through the platform API: with your API key (--api-key,
VOICE_API_KEY or the profile) on the hosted platform, else (or with --local) on an emulator the
demo starts at http://127.0.0.1:4010, so \`voice call list --local\` shows the calls (a free port,
printed, when 4010 is taken; --api-url names one to use instead). Without a public key and
assistant id, Test in Browser also runs on that emulator (or the one --api-url names): a real
call in the browser, the assistant heard, the microphone as the customer, no internet needed.
On an emulator both use the demo's own assistant with the visitor's first message and system
prompt; it is looked for at each call, so \`voice dev\` may start (or restart) after the demo.

Examples:
  voice demo --slug acme --open
  voice demo --visitors prospects.json --strict --port 8080
  voice demo --slug acme --no-captions
  voice demo --seller-name "Northwind Voice" --seller-logo ./logo.svg
  VOICE_PUBLIC_KEY=... VOICE_ASSISTANT_ID=... voice demo --slug acme`,
    )
    .addCommand(demoBuildCommand())
    .action(async (opts: DemoCliOptions, cmd: Command) => {
      const { runDemo } = await import('./run.js');
      // --api-key, --profile and --local are the program's global options; --api-url is ours (the
      // program leaves a flag to the command that defines it).
      const { apiKey, profile, local } = cmd.optsWithGlobals<{ apiKey?: string; profile?: string; local?: boolean }>();
      await runDemo(opts, { apiKey, profile, local });
    });
}
