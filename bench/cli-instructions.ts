// CLI start counted in CPU instructions instead of timed: `valgrind --tool=callgrind` reports how
// many instructions a launch executed, which a busy machine does not change (a wall-clock ratio
// on a shared machine swings by 2x). Informational: the budget is the wall-clock ratio of
// `cli-start`; this says how far the CLI is from it when the clock cannot.
// Slow (each launch runs about 50x slower under valgrind), so it runs only when named:
// `npm run bench -- cli-instructions`.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_KEY, seedAssistants, startEmulatorProcess } from './lib/emulator.js';
import { run } from './lib/proc.js';
import { interleave } from './lib/sample.js';
import { errorRow, row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'cli-instructions';
const VALGRIND = process.env.VOICE_BENCH_VALGRIND ?? '/usr/bin/valgrind';

/** Instructions executed by one launch (callgrind's "Collected" count). */
async function instructions(ctx: BenchContext, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const out = join(ctx.tmp, 'callgrind.out');
  const result = await run({ argv: [VALGRIND, '--tool=callgrind', `--callgrind-out-file=${out}`, ...argv], cwd: ctx.root, env }, 600_000);
  const match = /Collected\s*:\s*(\d+)/.exec(result.stderr);
  if (result.code !== 0 || !match) throw new Error(`valgrind ${argv.join(' ')} exited ${result.code}: ${result.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return Number(match[1]) / 1e6;
}

const benchmark: Benchmark = {
  name: bench,
  title: 'CLI start in instructions (valgrind callgrind), against `node -e 0`; only when named',
  async run(ctx): Promise<Row[]> {
    if (!existsSync(VALGRIND)) return [errorRow(bench, 'instructions', new Error(`no valgrind at ${VALGRIND} (apt-get install -y valgrind)`), true)];
    const emulator = await startEmulatorProcess(ctx);
    try {
      await seedAssistants(emulator.url, 20);
      const env: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: join(ctx.tmp, 'instr-config'), VOICE_API_KEY: BENCH_KEY, VOICE_API_URL: emulator.url, VOICE_PROFILE: undefined, VOICE_SENTRY_DSN: undefined };
      mkdirSync(env.XDG_CONFIG_HOME as string, { recursive: true });
      const launches: Record<string, string[]> = {
        node: [process.execPath, '-e', '0'],
        json: [process.execPath, 'bin/voice.js', 'assistant', 'list', '--json'],
      };
      if (!ctx.quick) launches.version = [process.execPath, 'bin/voice.js', '--version'];
      const tasks = Object.fromEntries(Object.entries(launches).map(([name, argv]) => [name, () => instructions(ctx, argv, env)]));
      const counts = await interleave(tasks, { warmup: 0, rounds: ctx.quick ? 1 : 3, onRound: (i) => ctx.log(`callgrind round ${i + 1}`) });
      const reference = { label: 'node -e 0', figure: counts.node as number[] };
      const rows = [row({ bench, metric: '`voice assistant list --json` instructions', unit: 'M instr', figure: counts.json as number[], reference })];
      if (counts.version) rows.unshift(row({ bench, metric: '`voice --version` instructions', unit: 'M instr', figure: counts.version, reference }));
      return rows;
    } finally {
      await emulator.close();
    }
  },
};

export default benchmark;
