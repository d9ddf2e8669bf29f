// `voice dev`: runs the local platform emulator in the foreground. Thin: parse flags, start
// the emulator (loaded only now), print where it is and how to use it, stop on Ctrl-C.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
// Small and dependency-free: the flag is checked with the emulator's own rule before it loads.
import { normaliseOrigin } from '../../core/emulator/cors.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { ringCommand } from './dev-ring.js';

/** Default port of `voice dev` (the one `voice --local` talks to). */
export const DEV_PORT = 4010;

interface DevOptions {
  port: number;
  host: string;
  data?: string;
  apiKey?: string;
  seed?: boolean;
  quiet?: boolean;
  corsOrigin?: string[];
  speed: number;
  scenario?: string;
  inspector: boolean;
}

/** The built inspector page's folder (dist/inspector), from the bundled CLI, one of its chunks or the sources. */
function inspectorDir(): string | undefined {
  for (const rel of ['../inspector/', '../../inspector/', '../../dist/inspector/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return undefined;
}

/** Where `voice dev` writes; tests pass their own. */
export interface DevIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: DevIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

function portFlag(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return n;
}

/** Parses a `--cors-origin` value (repeatable) into a normalised origin. */
function corsOriginFlag(value: string, previous: string[] | undefined): string[] {
  try {
    return [...(previous ?? []), normaliseOrigin(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function speedFlag(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 10_000) throw new InvalidArgumentError('expected a number above 0, at most 10000 (e.g. 10 runs calls ten times faster).');
  return n;
}

/** One stderr line per delivery: time, call, type, URL, status, milliseconds. */
function deliveryLine(d: { sentAt: string; callId: string; type: string; url: string; status?: number; error?: string; ms: number }): string {
  const outcome = d.status !== undefined ? String(d.status) : 'no answer';
  const why = d.error ? ` (${d.error})` : '';
  return `${d.sentAt.slice(11, 23)} call ${d.callId.slice(0, 8)} ${d.type} -> ${d.url} ${outcome}${why} ${d.ms.toFixed(0)} ms\n`;
}

function usage(url: string, port: number, apiKey: string | undefined): string {
  // The key itself is never printed (not even the one just typed): the lines name where it goes.
  const shown = apiKey ? '$VOICE_API_KEY' : 'any-key';
  const key = apiKey ? ' VOICE_API_KEY=<your --api-key>' : '';
  const cli = port === DEV_PORT && !apiKey ? `voice --local assistant list     (or: VOICE_API_URL=${url} voice assistant list)` : `VOICE_API_URL=${url}${key} voice assistant list`;
  return [
    `Local platform emulator on ${url} (Ctrl-C to stop)`,
    `  CLI:     ${cli}`,
    `  Client:  createClient({ baseUrl: '${url}', apiKey: ${apiKey ? 'process.env.VOICE_API_KEY' : "'any-key'"} })`,
    `  curl:    curl -H "Authorization: Bearer ${shown}" ${url}/assistant`,
    apiKey ? '  Secured requests must send exactly the --api-key given.' : '  Any bearer key is accepted (start with --api-key KEY to require one).',
    '',
  ].join('\n');
}

/** The `voice dev` command. */
export function devCommand(io: DevIo = processIo): Command {
  const dev = new Command('dev');
  dev.addCommand(ringCommand(io, `http://127.0.0.1:${DEV_PORT}`));
  return dev
    .description('Run the local platform emulator: the whole API on loopback, no key, no internet, no cost')
    .option('--port <port>', 'port to listen on (0 = any free port)', portFlag, DEV_PORT)
    .option('--host <host>', 'address to bind (loopback unless you say otherwise)', '127.0.0.1')
    .option('--data <file>', 'keep the data in this JSON file (loaded at start, saved after every change)')
    .option('--api-key <key>', 'require exactly this bearer key (default: any key is accepted)')
    .option('--seed', 'add sample assistants, calls, squads... so there is something to look at')
    .option('--quiet', 'do not log requests and deliveries on stderr')
    .option('--speed <n>', 'run the simulated clock N times faster (1 = real time: a call lasts tens of seconds)', speedFlag, 1)
    .option('--cors-origin <origin>', 'also let web pages on this origin call it (repeatable; loopback pages always may)', corsOriginFlag)
    .option('--scenario <file>', 'what simulated customers say and do, turn by turn (YAML or JSON; see README)')
    .option('--no-inspector', 'do not serve the inspector page (calls, deliveries, requests and resources, live) at /__voice/inspector/')
    .addHelpText(
      'after',
      `
Examples:
  voice dev --seed                         # then open the Inspector URL it prints
  voice dev --no-inspector
  voice dev --speed 10 --scenario fixtures/scenarios/booking.json
  voice dev --port 4011 --data .voice-dev.json
  voice dev --cors-origin https://app.example.test --cors-origin http://192.168.1.20:3000
  voice dev ring <phoneNumberId> --from +14155550100
  voice --local assistant list
  VOICE_API_URL=http://127.0.0.1:4010 voice call list`,
    )
    .action(async (opts: DevOptions, cmd: Command) => {
      // --api-key is also a global option; whichever parser saw it, it means "require this key" here.
      const apiKey = opts.apiKey ?? cmd.optsWithGlobals<{ apiKey?: string }>().apiKey;
      const { startEmulator, CorsPolicy, DataFileError, DataFileInUseError, loadScenario, ScenarioError } = await import('../../core/emulator/index.js');
      const corsOrigins = opts.corsOrigin ?? [];
      const log = opts.quiet ? undefined : (l: { method: string; path: string; status: number; ms: number }) => io.err(`${l.method} ${l.path} ${l.status} ${l.ms.toFixed(1)} ms\n`);
      const onDelivery = opts.quiet ? undefined : (d: Parameters<typeof deliveryLine>[0]) => io.err(deliveryLine(d));
      let scenario: Awaited<ReturnType<typeof loadScenario>> | undefined;
      try {
        if (opts.scenario) scenario = await loadScenario(opts.scenario);
      } catch (error) {
        if (error instanceof ScenarioError) throw usageError(error.message, 'See "Develop your server locally" in the README for the scenario format.');
        throw error;
      }
      let emu: Awaited<ReturnType<typeof startEmulator>>;
      const inspector = opts.inspector ? inspectorDir() : undefined;
      try {
        emu = await startEmulator({ port: opts.port, host: opts.host, dataFile: opts.data, apiKey, seed: opts.seed, log, corsOrigins, onDelivery, speed: opts.speed, scenario, inspectorDir: inspector });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') {
          throw new CliError(`Port ${opts.port} on ${opts.host} is already in use.`, ExitCode.Failure, `Stop whatever uses it, or pick another port with --port, e.g. voice dev --port ${opts.port + 1}`);
        }
        if (code === 'EACCES') throw new CliError(`Not allowed to listen on port ${opts.port}.`, ExitCode.Failure, 'Pick a port above 1023 with --port.');
        if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw usageError(`Cannot listen on host ${opts.host}: no such local address.`, 'Use --host 127.0.0.1 (the default) or an address of this machine.');
        if (error instanceof DataFileInUseError) {
          throw usageError(
            `--data ${opts.data}: the file is in use by another running \`voice dev\` (or emulator); two at once would overwrite each other's changes.`,
            'Stop the other one, or give this one its own file, e.g. `voice dev --data other.json` (or no --data to keep data in memory).',
          );
        }
        if (error instanceof DataFileError) throw usageError(error.message);
        throw error;
      }
      io.out(`${emu.url}\n`);
      io.err(usage(emu.url, emu.port, apiKey));
      if (opts.data) io.err(`  Data:    ${opts.data}${opts.seed ? ' (with sample data)' : ''}\n`);
      io.err(`  Browser: ${new CorsPolicy({ origins: corsOrigins, host: opts.host }).describe()} may call it${corsOrigins.length ? '' : ' (more with --cors-origin ORIGIN)'};\n`);
      io.err('           POST /call/web, /chat/web and /chat/web/responses answer any origin, as on the platform.\n');
      io.err(`  Calls:   run at ${opts.speed}x${scenario ? `, customers follow ${opts.scenario}` : ''}; deliveries: ${emu.url}/__voice/deliveries, live: ${emu.url}/__voice/events\n`);
      if (inspector) io.err(`  Inspector: ${emu.url}/__voice/inspector/   (calls, deliveries, requests, resources; live)\n`);
      else if (opts.inspector) io.err('  Inspector: not built (run npm run build); the emulator runs without it.\n');
      if (!['127.0.0.1', 'localhost', '::1'].includes(opts.host)) io.err(`  Warning: bound to ${opts.host}, so other machines can reach it; the emulator has no real security.\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop).off('SIGTERM', stop);
          // A second Ctrl-C while closing exits at once.
          const force = (): never => process.exit(ExitCode.Interrupted);
          process.once('SIGINT', force);
          io.err('Stopping the emulator...\n');
          const done = (): void => {
            process.off('SIGINT', force);
            resolve();
          };
          void emu.close().then(done, done);
        };
        process.once('SIGINT', stop).once('SIGTERM', stop);
      });
    });
}
