// `voice apply` of 200 resource files against the emulator, beside the same 200 assistants created
// one by one with the platform's official server SDK (@vapi-ai/server-sdk), each side a fresh
// Node process (start, module loading and every request included), in interleaved rounds.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from '#core/gitops/index';
import { checkCliBuild } from './lib/freshness.js';
import { BENCH_KEY, assistantBody, withEmulatorProcess } from './lib/emulator.js';
import { runOk } from './lib/proc.js';
import type { Command } from './lib/proc.js';
import { interleave } from './lib/sample.js';
import { row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'apply';

// The developer's script: one create after another, as the SDK's examples do.
const SDK_SCRIPT = `
import { readFileSync } from 'node:fs';
import { VapiClient } from '@vapi-ai/server-sdk';
const [url, token, file] = process.argv.slice(1);
const client = new VapiClient({ token, baseUrl: url, maxRetries: 0 });
let made = 0;
for (const body of JSON.parse(readFileSync(file, 'utf8'))) if ((await client.assistants.create(body)).id) made++;
console.log(made);
`;

/** Writes `count` assistant files (the same bodies the SDK sends) into a fresh resources directory. */
function writeResources(dir: string, count: number): void {
  mkdirSync(join(dir, 'assistants'), { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(join(dir, 'assistants', `bench-${i}.yml`), render(assistantBody(i), 'yml'));
}

async function measure(ctx: BenchContext, url: string): Promise<Row[]> {
  const count = ctx.quick ? 10 : 200;
  const env: NodeJS.ProcessEnv = {
    XDG_CONFIG_HOME: join(ctx.tmp, 'apply-config'),
    VOICE_PROFILE: undefined,
    VOICE_API_URL: undefined,
    VOICE_API_KEY: undefined,
    VAPI_API_KEY: undefined,
    VAPI_TOKEN: undefined,
    VOICE_SENTRY_DSN: undefined,
  };
  mkdirSync(env.XDG_CONFIG_HOME as string, { recursive: true });
  // The SDK script's bodies: the same as the files'.
  const bodies = join(ctx.tmp, 'apply-bodies.json');
  writeFileSync(bodies, JSON.stringify(Array.from({ length: count }, (_, i) => assistantBody(i))));
  let round = 0;
  const tasks = {
    'voice apply': async (): Promise<number> => {
      // A fresh directory (and so a fresh state file): every file is a create.
      const dir = join(ctx.tmp, `apply-${round++}`);
      writeResources(dir, count);
      const command: Command = {
        argv: [process.execPath, 'bin/voice.js', 'apply', '--yes', '--json', '--dir', dir, '--api-url', url, '--api-key', BENCH_KEY],
        cwd: ctx.root,
        env,
      };
      const result = await runOk(command, 300_000);
      const done = (JSON.parse(result.stdout) as { done: unknown[] }).done.length;
      if (done !== count) throw new Error(`voice apply made ${done} of ${count} changes`);
      return result.ms;
    },
    'server SDK': async (): Promise<number> => {
      const command: Command = { argv: [process.execPath, '--input-type=module', '-e', SDK_SCRIPT, url, BENCH_KEY, bodies], cwd: ctx.root, env };
      const result = await runOk(command, 300_000);
      if (Number(result.stdout.trim()) !== count) throw new Error(`the SDK script made ${result.stdout.trim()} of ${count} assistants`);
      return result.ms;
    },
  };
  // A launch of a few hundred milliseconds swings by about 10% on two shared cores (one round of
  // nine read 755 ms against a median of 337): each round's sample is the median of five (with
  // three, the rounds' IQR reached 0.40x and 0.44x at medians of 0.36x and 0.39x).
  const samples = await interleave(tasks, { warmup: ctx.quick ? 0 : 1, rounds: ctx.quick ? 1 : 7, perRound: ctx.quick ? 1 : 5, onRound: (i) => ctx.log(`apply round ${i + 1}`) });
  return [
    row({
      bench,
      metric: `\`voice apply\` of ${count} assistant files, process start to exit`,
      unit: 'ms',
      figure: samples['voice apply'] as number[],
      reference: { label: `${count} creates one by one, @vapi-ai/server-sdk`, figure: samples['server SDK'] as number[] },
      budget: { op: '<=', limit: 0.4, on: 'ratio' },
    }),
  ];
}

const benchmark: Benchmark = {
  name: bench,
  title: '`voice apply` of 200 resources against the emulator, beside one-by-one creates with the official server SDK',
  async run(ctx): Promise<Row[]> {
    const stale = checkCliBuild(ctx.root);
    if (stale) ctx.log(stale);
    return withEmulatorProcess(ctx, (url) => measure(ctx, url));
  },
};

export default benchmark;
