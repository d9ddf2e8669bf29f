// `voice dev`: runs the local platform emulator in the foreground. Thin: parse flags, start
// the emulator (dev-run), print where it is and how to use it, stop on Ctrl-C.
import { EMULATOR_URL, localFlags } from '#core/hosts';
import { Command } from 'commander';
import { CorsPolicy } from '#core/emulator/http/cors';
import { AUDIO_PACKAGE, audioInstalled } from '#core/emulator/calls/audio/port';
import { ExitCode } from '../../errors.js';
import { addSecret, err, out } from '../../redact.js';
import { profileName } from '../../settings.js';
import { ringCommand } from './ring.js';
import { addDevOptions, DEV_PORT } from './options.js';
import type { DevIo, DevOptions } from './options.js';
import type { DataFileStart } from 'voice-agent-core/emulator';
import { execCommand } from './exec.js';
import { startDev } from './run.js';
import { stateCommands } from './state.js';

export { DEV_PORT } from './options.js';
export type { DevIo } from './options.js';

// Through the redaction like every other output of the CLI: a request log line or a model's error
// that echoes a key is masked.
const processIo: DevIo = { out, err };

/** What the start found in the data file, for the banner: how much it loaded, and what a killed run left. */
function dataFileFound(found: DataFileStart | undefined): string {
  if (!found) return '';
  const loaded = found.objects ? `; loaded ${found.objects} objects (${found.calls} calls)` : '; new file';
  const left = found.removedTempFiles
    ? `; removed ${found.removedTempFiles} half-written temp file${found.removedTempFiles === 1 ? '' : 's'} a stopped run left (the file is its last complete state)`
    : '';
  return loaded + left;
}

function usage(url: string, apiKey: string | undefined): string {
  // The key itself is never printed (not even the one just typed): the lines name where it goes.
  const shown = apiKey ? '$VOICE_API_KEY' : 'any-key';
  // --local (with --api-url off port 4010) needs no key: the command runs as printed, saved key or not.
  const cli = `voice assistant list ${localFlags(url)}${apiKey ? '     (with VOICE_API_KEY set to the --api-key given)' : ''}`;
  return [
    `Local platform emulator on ${url} (Ctrl-C to stop)`,
    `  CLI:     ${cli}`,
    `  Client:  createClient({ baseUrl: '${url}', apiKey: ${apiKey ? 'process.env.VOICE_API_KEY' : "'any-key'"} })`,
    `  curl:    curl -H "Authorization: Bearer ${shown}" ${url}/assistant`,
    apiKey ? '  Secured requests must send exactly the --api-key given.' : '  Any bearer key is accepted (start with --api-key KEY to require one).',
    '',
  ].join('\n');
}

/** The banner's model line: the endpoint or cassette in use, or that conversations are scripted and how to change it. */
export function modelLine(described: string, configured: boolean): string {
  const what = described.replace(/^model: /, '');
  if (configured) return what;
  return `none configured: conversations are scripted (custom-llm assistants with a model.url still call it); give one with --llm URL --llm-model NAME (see docs/model.md)`;
}

/** The banner's audio line: sound on (loaded when the first call needs it), or off and how to turn it on. */
export function audioLine(wanted: boolean, installed: boolean): string {
  if (!wanted) return 'off (--no-audio): calls run on the text timeline; start without --no-audio to give them speech and the timing rules';
  if (!installed) return `off: ${AUDIO_PACKAGE} is not installed; npm install ${AUDIO_PACKAGE} gives calls speech, voice activity detection and the timing rules (docs/audio.md)`;
  return `on: both sides speak with local stand-in voices, the timing rules run on the audio (${AUDIO_PACKAGE}, loaded when the first call needs it; --no-audio to turn it off)`;
}

/** Runs until SIGINT or SIGTERM, then calls `stop` (a second Ctrl-C while stopping exits at once). */
export function untilInterrupted(stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const onSignal = (): void => {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      const force = (): never => process.exit(ExitCode.Interrupted);
      process.once('SIGINT', force);
      void stop().finally(() => {
        process.off('SIGINT', force);
        resolve();
      });
    };
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  });
}

/** The `voice dev` command. */
export function devCommand(io: DevIo = processIo): Command {
  const dev = new Command('dev');
  dev.addCommand(ringCommand(io, EMULATOR_URL));
  dev.addCommand(execCommand(io));
  for (const c of stateCommands(io, EMULATOR_URL)) dev.addCommand(c);
  return addDevOptions(dev, DEV_PORT)
    .description('Run the local platform emulator: the whole API on loopback, no key, no internet, no cost')
    .addHelpText(
      'after',
      `
The first stdout line is the URL; --ready-file F is written once it answers; GET /__voice/health answers 200.

Examples:
  voice dev --seed                         # then open the Inspector URL it prints
  voice dev --no-inspector
  voice dev --speed 10 --scenario fixtures/scenarios/booking.json
  voice dev --llm http://127.0.0.1:11434/v1 --llm-model llama3.2     # Ollama runs every assistant
  voice dev --llm https://api.openai.com/v1 --llm-key $OPENAI_API_KEY --llm-record model.cassette.json
  voice dev exec --llm-replay model.cassette.json -- npm test
  voice dev --port 4011 --data .voice-dev.json
  voice dev --cors-origin https://app.example.test --cors-origin http://192.168.1.20:3000
  voice dev --apply resources --port 0 --ready-file .voice-dev.url
  voice dev --import state.json --export-on-exit state.json
  voice dev exec --apply resources -- npm test
  voice dev reset
  voice dev snapshot save before-booking
  voice dev ring <phoneNumberId> --from +14155550100
  voice --local assistant list
  VOICE_API_URL=http://127.0.0.1:4010 VOICE_API_KEY=any-key voice call list`,
    )
    .action(async (opts: DevOptions, cmd: Command) => {
      // --api-key is also a global option; whichever parser saw it, it means "require this key" here.
      const globals = cmd.optsWithGlobals<{ apiKey?: string; profile?: string }>();
      const apiKey = opts.apiKey ?? globals.apiKey;
      addSecret(apiKey);
      const running = await startDev(opts, apiKey, io, profileName(globals));
      const { emu } = running;
      const corsOrigins = opts.corsOrigin ?? [];
      io.out(`${emu.url}\n`);
      io.err(usage(emu.url, apiKey));
      if (opts.data) io.err(`  Data:    ${opts.data}${opts.seed ? ' (with sample data)' : ''}${dataFileFound(emu.dataFile)}\n`);
      if (opts.import) io.err(`  Started from ${opts.import}\n`);
      if (opts.exportOnExit) io.err(`  On exit: everything is written to ${opts.exportOnExit}\n`);
      io.err(`  Browser: ${new CorsPolicy({ origins: corsOrigins, host: opts.host }).describe()} may call it${corsOrigins.length ? '' : ' (more with --cors-origin ORIGIN)'};\n`);
      io.err('           POST /call/web, /chat/web and /chat/web/responses answer any origin, as on the platform.\n');
      io.err(`  Calls:   run at ${opts.speed}x${opts.scenario ? `, customers follow ${opts.scenario}` : ''}; deliveries: ${emu.url}/__voice/deliveries, live: ${emu.url}/__voice/events\n`);
      io.err(`  Model:   ${modelLine(emu.model.describe(), Boolean(opts.llm || opts.llmReplay || opts.llmRecord))}\n`);
      io.err(`  Audio:   ${audioLine(opts.audio !== false, audioInstalled())}\n`);
      io.err(`  State:   voice dev reset --api-url ${emu.url}  (back to the start; health: ${emu.url}/__voice/health)\n`);
      if (running.inspector) io.err(`  Inspector: ${emu.url}/__voice/inspector/   (calls, deliveries, requests, resources; live)\n`);
      else if (opts.inspector) io.err('  Inspector: not built (run npm run build); the emulator runs without it.\n');
      if (!['127.0.0.1', 'localhost', '::1'].includes(opts.host)) io.err(`  Warning: bound to ${opts.host}, so other machines can reach it; the emulator has no real security.\n`);
      await untilInterrupted(async () => {
        io.err('Stopping the emulator...\n');
        await running.stop();
      });
    });
}
