// `voice test [DIR]`: runs a resource folder's evals, simulations and suites against the local
// platform (started in-process, the folder applied) or a running one / the hosted platform, and
// exits 0 only when every required evaluation passed. Thin: flags here, the run in test-run.ts.
import { Command, InvalidArgumentError } from 'commander';
import { contextOf } from '../../context.js';
import { modelFlag, urlFlag } from '../dev/options.js';
import { parseShard } from '#core/evals/index';
import { testImportCommand } from './import.js';
import { testMergeCommand } from './merge.js';
import { runTestCommand } from './run.js';
import type { TestOptions } from './run.js';

function count(min: number, max: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected ${what} from ${min} to ${max}.`);
    return n;
  };
}

function shardFlag(value: string): { index: number; total: number } {
  const parsed = parseShard(value);
  if (typeof parsed === 'string') throw new InvalidArgumentError(`${parsed}.`);
  return parsed;
}

function budgetsFlag(value: string): string {
  if (!['auto', 'on', 'off'].includes(value)) throw new InvalidArgumentError('expected auto, on or off.');
  return value;
}

/** The `test` command, with `test import` and `test merge`. */
export function testCommand(): Command {
  const test = new Command('test')
    .description("Run the folder's evals and simulations (locally, on the model you name, or on the hosted platform) and report; JUnit for CI")
    .argument('[dir]', 'the resources folder (the layout `voice pull` writes)', 'resources')
    .option(
      '--target <id>',
      "the assistant or squad under test: a file id (receptionist, squads/front-office) or assistant:UUID / squad:UUID (default: the folder's only squad, else its only assistant)",
    )
    .option('--iterations <n>', 'run each simulation N times (a mix of passes and failures is reported flaky)', count(1, 10, 'a whole number'), 1)
    .option('--concurrency <n>', 'model requests in flight at once on the local platform (up to twice as many simulations play at once)', count(1, 64, 'a whole number'), 4)
    .option('--filter <text>', 'only the evals and simulations whose file id or name contains this')
    .option('--junit <file>', 'also write the results as JUnit XML (one test case per simulation iteration)')
    .option('--lint', 'only check the files for traps and dangling references (exit 2 when any)')
    .option('--shard <i/n>', "run shard I of N: a deterministic slice, balanced by the last run's times (DIR/.voice-times.json) when known, else by count", shardFlag)
    .option('--save-times', "write this run's times to DIR/.voice-times.json, which --shard balances by")
    .option('--list', 'print the cases that would run (after --filter and --shard) and exit')
    .option('--budgets <when>', 'judge latency budgets: auto (live model runs, not cassette replays), on, off', budgetsFlag, 'auto')
    .option('--watch', "run, then re-run the tests each changed file touches (an edited prompt: that assistant's tests), showing the last result of each")
    .option('--hosted', "run on the profile's platform (the hosted one) through its runs API; apply the folder there first")
    .option('--llm <url>', 'OpenAI-compatible endpoint the local platform runs every model on (Ollama, llama.cpp, a hosted API)', urlFlag)
    .option('--llm-key <key>', 'bearer key for --llm (default: VOICE_LLM_KEY); never written anywhere')
    .option('--llm-model <name>', 'model name for --llm, or provider/model=NAME (repeatable)', modelFlag)
    .option('--llm-record <file>', 'write every model exchange to this cassette')
    .option('--llm-replay <file>', 'answer every model request from this cassette (deterministic CI runs, no model called)')
    .addHelpText(
      'after',
      `
Without --api-url, --local or --hosted, a local platform starts in this process, the folder is
applied to it, and the runs play on the model the --llm options name (or a cassette). The folder
is checked first: a trap (a scenario whose evaluations all need audio, a comparator on an object,
a dangling reference) stops the run with file:line and exit 2. A simulation file with
x-voice.transport: vapi.websocket runs in voice mode: a call on the local platform's audio loop,
its audio-only evaluations (interruptions, silences, latency) judged on the call's timeline.

Exit codes: 0 every required evaluation passed; 1 one failed, was flaky or a run errored; 2 bad input.
Latency budgets (x-voice in an eval) are judged on the model's time to first token; on a cassette
replay they are off unless --budgets on (the timings are the recording's).

Examples:
  $ voice test fixtures/gitops/starter --llm http://127.0.0.1:11434/v1 --llm-model llama3.2
  $ voice test --llm-replay test/cassette.json --junit reports/voice.xml       # in CI
  $ voice test --iterations 5 --filter booking
  $ voice test --lint
  $ voice test --local                      # against a running \`voice dev\` (apply first)
  $ voice test --shard 2/3 --llm-replay test/cassette.json --junit reports/shard-2.xml
  $ voice test merge reports/shard-*.xml --junit reports/voice-test.xml
  $ voice test import 5b1c2d3e-... --local --expect "2: books the Tuesday the caller asked for"
  $ voice test --watch --llm http://127.0.0.1:11434/v1
`,
    )
    .action(async (dir: string, _o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      await runTestCommand(ctx, dir, ctx.opts as unknown as TestOptions);
    });
  test.addCommand(testImportCommand());
  test.addCommand(testMergeCommand());
  return test;
}
