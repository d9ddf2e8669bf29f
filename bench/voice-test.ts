// `voice test`: 20 simulations x 3 iterations at --concurrency 8, against a fake model that takes
// 50 ms to answer each request (tester, target and extractor turns alike). Budget: the process's
// wall time within 1.25x the ideal, the model requests the run made x 50 ms / 8, counted in the
// same round (a perfect scheduler with no overhead of its own would take exactly that); the fake
// model checks it never had more than 8 requests in flight at once.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeModel } from '#core/model/testing';
import type { FakeReply } from '#core/model/testing';
import { byRole, testerTurn } from '#core/evals/roles.test-support';
import { run as launch } from './lib/proc.js';
import { row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'voice-test';
const DELAY_MS = 50;
const CONCURRENCY = 8;
/** Things the tester says before it hangs up (each answered by the target). */
const TESTER_LINES = 4;

function writeFolder(dir: string, simulations: number): void {
  const files: Record<string, string> = {
    'assistants/front-desk.md': '---\nname: Front desk\nfirstMessage: Hello, front desk.\nmodel:\n  provider: openai\n  model: gpt-4o\n---\n\nYou book appointments.\n',
    'structuredOutputs/outcome.yml': 'name: Outcome\ntype: ai\nschema:\n  type: object\n  properties:\n    outcome:\n      type: string\n',
    'simulations/personalities/caller.yml': 'name: Caller\nassistant:\n  model:\n    provider: openai\n    model: gpt-4o-mini\n',
  };
  for (let i = 1; i <= simulations; i++) {
    files[`simulations/scenarios/s${i}.yml`] =
      `name: Scenario ${i}\ninstructions: Book slot ${i}.\nevaluations:\n  - structuredOutputId: outcome\n    path: outcome\n    comparator: "="\n    value: booked\n`;
    files[`simulations/tests/t${i}.yml`] = `name: Simulation ${i}\npersonalityId: caller\nscenarioId: s${i}\n`;
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const simulations = ctx.quick ? 4 : 20;
  const iterations = ctx.quick ? 1 : 3;
  const rounds = ctx.quick ? 1 : 3;
  const dir = join(ctx.tmp, 'voice-test-folder');
  writeFolder(dir, simulations);
  const delayed = (reply: FakeReply): FakeReply => ({ ...reply, delayMs: DELAY_MS });
  const model = await startFakeModel(
    byRole({
      tester: (req) => delayed(testerTurn(req) < TESTER_LINES ? { text: `Line ${testerTurn(req) + 1}, please.` } : { toolCalls: [{ name: 'endCall' }] }),
      target: () => delayed({ text: 'Noted.' }),
      extractor: () => delayed({ text: '{"outcome":"booked"}' }),
      judge: () => delayed({ text: 'pass' }),
    }),
  );
  const wall: number[] = [];
  const ideal: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const before = model.requests.length;
      const result = await launch(
        {
          argv: [process.execPath, 'bin/voice.js', 'test', dir, '--llm', model.url, '--iterations', String(iterations), '--concurrency', String(CONCURRENCY), '--json'],
          cwd: ctx.root,
          env: { NO_COLOR: '1' },
        },
        120_000,
      );
      const ms = result.ms;
      if (result.code !== 0) throw new Error(`voice test exited ${result.code}: ${result.stderr.slice(-400)}`);
      const report = JSON.parse(result.stdout) as { simulations: { passed: number }[] };
      const passed = report.simulations.reduce((n, s) => n + s.passed, 0);
      if (passed !== simulations * iterations) throw new Error(`voice test passed ${passed} of ${simulations * iterations} items`);
      // The ideal assumes at most CONCURRENCY requests in flight: a run that sent more would beat it dishonestly.
      if (model.peakInFlight > CONCURRENCY) throw new Error(`the model had ${model.peakInFlight} requests in flight at once (--concurrency ${CONCURRENCY})`);
      const requests = model.requests.length - before;
      wall.push(ms);
      ideal.push((requests * DELAY_MS) / CONCURRENCY);
      ctx.log(`voice-test: round ${r + 1}: ${requests} model requests, ${ms.toFixed(0)} ms (ideal ${ideal.at(-1)?.toFixed(0)} ms)`);
    }
  } finally {
    await model.close();
  }
  return [
    row({
      bench,
      metric: `\`voice test\` of ${simulations} simulations x ${iterations} iterations, ${DELAY_MS} ms a model turn, --concurrency ${CONCURRENCY}: process start to exit`,
      unit: 'ms',
      figure: wall,
      reference: { label: `ideal: model requests x ${DELAY_MS} ms / ${CONCURRENCY}`, figure: ideal },
      budget: { op: '<=', limit: 1.25, on: 'ratio' },
      note: 'includes process start, the in-process platform, applying the folder and following the runs',
    }),
  ];
}

/** The voice test benchmark. */
const benchmark: Benchmark = { name: bench, title: '`voice test`: 20 simulations x 3 iterations on a 50 ms fake model at concurrency 8, against the ideal', run };

export default benchmark;
