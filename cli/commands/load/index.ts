// `voice load`: the platform's traffic for many calls at once against your server, with its
// deadlines. Thin: parse flags, pick the assistant (cli/commands/load/source), run core/load, print.
import { basename, dirname, extname, join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { FAULTS, LoadOptionsError, ScenarioError, exportArtillery, loadScenario, runLoad } from '#core/load/index';
import type { Fault, LoadOptions } from '#core/load/index';
import type { Json } from '#core/messages/index';
import { contextOf } from '../../context.js';
import type { GlobalOptions } from '../../settings.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { liveLine, resultJson, resultText, verdictOf } from './output.js';
import { reportPage } from './report-html.js';
import { assistantFile, folderAssistant, serverUrl, standIn, withServer } from './source.js';
import { prepareOutFile, writeOutFile } from '../../output/out-file.js';
import { printJson } from '../../output/print.js';
import { addSecret, err, out } from '../../redact.js';
import { signingPlan } from '../../webhook/credential.js';
import { headerFlag, listFlag, secondsFlag } from '../../webhook/flags.js';

/** The options of `voice load`, as commander sets them. */
export interface LoadFlags {
  server?: string;
  assistant?: string;
  from?: string;
  calls: number;
  concurrent?: number;
  rate?: number;
  ramp?: number;
  duration?: number;
  inbound: number;
  speed: number;
  scenario?: string;
  timeout?: number;
  header?: Record<string, string>;
  credential?: string;
  fault?: string[];
  maxErrors: number;
  report?: string;
  export?: string;
}

/** A numeric flag's parser: a number from `min` to `max` (whole when asked), else a usage error naming the range. */
const number =
  (what: string, min: number, max: number, whole = false) =>
  (value: string): number => {
    const n = value.trim() === '' ? NaN : Number(value);
    if (!Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) throw new InvalidArgumentError(`expected ${what}, got "${value}".`);
    return n;
  };

function faultsOf(names: string[] | undefined): Fault[] {
  const out: Fault[] = [];
  for (const name of names ?? []) {
    if (!(FAULTS as readonly string[]).includes(name)) throw usageError(`--fault: unknown fault "${name}" (known: ${FAULTS.join(', ')})`);
    out.push(name as Fault);
  }
  return out;
}

/** The `voice load` command. */
export function loadCommand(): Command {
  return new Command('load')
    .description("Load-test your server with the platform's traffic: many calls at once, every message in order, deadlines enforced")
    .argument('[file]', 'with --export: the file to write')
    .option('--server <url>', 'your server, e.g. localhost:3000/webhook (else the server of --assistant)')
    .option('--assistant <file|id>', 'play this assistant: an assistant file, or with --from the file id in the folder')
    .option('--from <dir>', 'a resource folder (voice pull layout): the assistant and its tools come from it')
    .option('--calls <n>', 'calls to place in all', number('a whole number from 1 to 1000000', 1, 1_000_000, true), 10)
    .option(
      '--concurrent <n>',
      'keep this many calls going at once: the next starts as one ends (until --calls are placed or --duration is up)',
      number('a whole number from 1 to 100000', 1, 100_000, true),
    )
    .option('--rate <n>', 'calls started per second (default: all at once)', number('a number of calls a second above 0, at most 10000', Number.MIN_VALUE, 10_000))
    .option('--ramp <seconds>', 'climb to --rate over this many seconds', number('a number of seconds from 0 to 3600', 0, 3600))
    .option('--duration <seconds>', 'stop starting calls after this many seconds', secondsFlag)
    .option('--inbound <share>', 'share of inbound calls (they begin with assistant-request), 0 to 1', number('a share from 0 to 1', 0, 1), 0.5)
    .option('--speed <n>', 'how much faster than real time conversations run (answer times are always real)', number('a number above 0, at most 1000000', Number.MIN_VALUE, 1_000_000), 1)
    .option('--scenario <file>', 'what the simulated customers say and which tools are called (YAML or JSON)')
    .option('--timeout <seconds>', "the server's timeoutSeconds (the platform's default is 20)", secondsFlag)
    .option('--header <header>', 'send this header too, e.g. "x-vapi-secret: s3cret" (repeatable)', headerFlag)
    .option('--credential <id>', 'sign every delivery as the platform does for a server naming this webhook credential')
    .option('--fault <names>', `inject faults from the platform side: ${FAULTS.join(', ')} (comma-separated, repeatable)`, listFlag)
    .option('--max-errors <percent>', 'fail when more than this share of deliveries fail', number('a percentage from 0 to 100', 0, 100), 0)
    .option('--report <file.html>', 'also write a page with latency over time and a histogram per message type')
    .option('--export <format>', 'write the same traffic for another tool instead of running it (artillery)')
    .addHelpText(
      'after',
      `
Deadlines: assistant-request 7.5 s (or the server's timeoutSeconds when shorter), tool-calls the
tool's server timeoutSeconds, every other message the server's timeoutSeconds (default 20 s).
A late assistant-request ends the inbound call as assistant-request-failed, as the platform does.
Exit status: 0 when every deadline held and errors stayed under --max-errors, 1 otherwise, 2 for
usage errors. Runs on this machine only; for traffic from many machines, --export artillery.

Examples:
  $ voice load --server localhost:3000/webhook --calls 50 --rate 5 --ramp 10
  $ voice load --server localhost:3000/webhook --calls 200 --speed 20 --fault duplicate,burst
  $ voice load --server localhost:3000/webhook --concurrent 30 --duration 600
  $ voice load --from ./resources --assistant support --calls 100 --rate 10 --report load.html
  $ voice load --server https://staging.example.com/hook --calls 500 --rate 20 --export artillery load.yml`,
    )
    .action(async (file: string | undefined, _o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const opts = cmd.optsWithGlobals<LoadFlags & GlobalOptions>();
      const json = ctx.output.mode === 'json';
      if (file !== undefined && opts.export === undefined) throw usageError(`Unexpected argument "${file}": a file goes with --export artillery FILE.`);
      if (opts.export !== undefined && opts.export !== 'artillery') throw usageError(`--export: unknown format "${opts.export}" (known: artillery)`);
      if (opts.export !== undefined && file === undefined) throw usageError('--export artillery needs the file to write, e.g. voice load --export artillery load.yml --server URL');
      if (opts.report !== undefined) prepareOutFile(opts.report, '--report');
      if (file !== undefined) prepareOutFile(file, '--export artillery');
      let assistant: Json;
      if (opts.from !== undefined) assistant = folderAssistant(opts.from, opts.assistant);
      else assistant = opts.assistant !== undefined ? assistantFile(opts.assistant) : standIn();
      for (const v of Object.values(opts.header ?? {})) addSecret(v);
      const plan = opts.credential === undefined ? undefined : await signingPlan(ctx, opts.credential);
      assistant = withServer(assistant, {
        ...(opts.server !== undefined ? { server: await serverUrl(opts.server, opts.export === undefined) } : {}),
        ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
        ...(opts.header ? { header: opts.header } : {}),
        ...(opts.credential !== undefined ? { credential: opts.credential } : {}),
      });
      let scenario;
      try {
        scenario = opts.scenario === undefined ? undefined : await loadScenario(opts.scenario);
      } catch (e) {
        if (e instanceof ScenarioError) throw usageError(e.message);
        throw e;
      }
      // Held lines with a duration and no count: as many calls as the duration holds.
      const countGiven = cmd.getOptionValueSource('calls') !== 'default';
      if (opts.concurrent !== undefined && !countGiven && opts.duration === undefined)
        throw usageError('--concurrent keeps lines busy until --calls are placed or --duration is up: give one, e.g. --concurrent 20 --duration 300');
      const options: LoadOptions = {
        assistant,
        calls: opts.concurrent !== undefined && !countGiven && opts.duration !== undefined ? Infinity : opts.calls,
        ...(opts.concurrent !== undefined ? { concurrent: opts.concurrent } : {}),
        inbound: opts.inbound,
        speed: opts.speed,
        faults: faultsOf(opts.fault),
        ...(opts.rate !== undefined ? { rate: opts.rate } : {}),
        ...(opts.ramp !== undefined ? { rampSeconds: opts.ramp } : {}),
        ...(opts.duration !== undefined ? { durationSeconds: opts.duration } : {}),
        ...(scenario ? { scenario } : {}),
        ...(plan ? { credential: (id: string) => (id === opts.credential ? plan : undefined) } : {}),
      };
      try {
        if (opts.export !== undefined) {
          // The call list sits next to the script, which names it relative to itself (as Artillery reads it).
          const csvFile = join(dirname(file as string), `${basename(file as string, extname(file as string))}.calls.csv`);
          const yaml = await exportArtillery(options, basename(csvFile));
          writeOutFile(csvFile, yaml.csv, '--export artillery');
          writeOutFile(file as string, yaml.text, '--export artillery');
          err(`Wrote ${file} and its call list ${csvFile}: ${yaml.requests} requests in ${yaml.users.inbound + yaml.users.outbound} calls. Run it with: artillery run ${file}\n`);
          for (const note of yaml.notes) err(`Note: ${note}\n`);
          return;
        }
        const live = !json && process.stderr.isTTY === true;
        const controller = new AbortController();
        const interrupt = (): void => controller.abort();
        process.once('SIGINT', interrupt);
        const result = await runLoad({ ...options, signal: controller.signal, ...(live ? { onProgress: (f) => err(`\r\x1b[2K${liveLine(f)}`) } : {}) }).finally(() => process.off('SIGINT', interrupt));
        if (live) err('\r\x1b[2K');
        const verdict = verdictOf(result, opts.maxErrors);
        if (opts.report !== undefined) {
          writeOutFile(opts.report, reportPage(result, verdict), '--report');
          if (!json) err(`Wrote the report page to ${opts.report}\n`);
        }
        if (json) printJson(resultJson(result, verdict), ctx.output);
        else out(resultText(result, verdict));
        if (!verdict.ok) throw new CliError(verdict.reasons.join('; '), ExitCode.Failure);
      } catch (e) {
        if (e instanceof LoadOptionsError) throw usageError(e.message);
        throw e;
      }
    });
}
