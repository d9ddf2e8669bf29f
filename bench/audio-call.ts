// Sound's cost on `voice dev`: its start with voice-agent-audio available against `--no-audio`
// (launch to the URL on stdout, interleaved: the package loads when the first call needs it, so
// the start must not pay for it), and the wall time of one call at `--speed 20` with sound against
// the same call on the text timeline. The calls run in this process on two emulators (sound on,
// sound off), after a warm-up call that loads the package; every round's call says lines no call
// said before (the customer's from a scenario made for the round, the assistant's from a loopback
// model that answers each request with a new sentence), so synthesis is paid as on a new call.
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator, Scenario } from 'voice-agent-core/emulator';
import { interleave } from './lib/sample.js';
import { errorRow, row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';
import { voiceDevStartMs } from './lib/voice-dev.js';

const bench = 'audio-call';
const SPEED = 20;

async function startRows(ctx: BenchContext): Promise<Row[]> {
  // The same method as the inspector's start row (a 5% budget on a launch of about 250 ms): each
  // round's sample is the median of eleven launches, over nine rounds.
  const rounds = ctx.quick ? 1 : 9;
  const samples = await interleave(
    { on: () => voiceDevStartMs(ctx.root, []), off: () => voiceDevStartMs(ctx.root, ['--no-audio']) },
    { warmup: ctx.quick ? 0 : 1, rounds, perRound: ctx.quick ? 1 : 11, onRound: (i) => ctx.log(`voice dev start with/without audio, round ${i + 1}`) },
  );
  return [
    row({
      bench,
      metric: 'voice dev start, audio available (launch to URL; the package loads at the first call)',
      unit: 'ms',
      figure: samples.on as number[],
      reference: { label: '--no-audio', figure: samples.off as number[] },
      budget: { op: '<=', limit: 1.05, on: 'ratio' },
    }),
  ];
}

const NUMBERS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The customer's lines of round `r`: none said in another round. */
function scenarioOf(r: number): Scenario {
  const n = NUMBERS[r % NUMBERS.length] as string;
  const day = DAYS[r % DAYS.length] as string;
  return {
    turns: [
      { say: `Hi, I would like to book ${n} seats for ${day} evening.` },
      { say: `My name is Morgan, and my reference is ${n} ${n} seven.` },
      { say: `That is all for round ${n}, thank you.`, hangup: true },
    ],
  };
}

/** A model that answers every request with a sentence no earlier request got. */
async function freshModel(): Promise<FakeModel> {
  let said = 0;
  return startFakeModel(() => {
    said++;
    const n = NUMBERS[said % NUMBERS.length] as string;
    return { text: `Certainly, I have noted request number ${said}, that is ${n} items, and it is confirmed for you.` };
  });
}

/** One call to its end on `emu`, with `firstMessage`; resolves with the wall ms and the call's own length in s. */
async function oneCall(emu: Emulator, firstMessage: string): Promise<{ ms: number; seconds: number }> {
  const assistant = (await emu.client.assistant.create({ name: 'Bench', firstMessage, model: { provider: 'openai', model: 'gpt-4o-mini' } } as never)) as { id: string };
  const started = performance.now();
  const placed = (await emu.client.call.create({ assistantId: assistant.id, customer: { number: '+14155550100' } } as never)) as { id: string };
  await emu.calls.idle();
  const ms = performance.now() - started;
  const call = (await emu.client.call.get(placed.id)) as { startedAt?: string; endedAt?: string; endedReason?: string };
  if (call.endedReason !== 'customer-ended-call') {
    const logs = (await (await fetch(`${emu.url}/logs?callId=${placed.id}`, { headers: { authorization: 'Bearer bench' } })).json()) as { results?: unknown[] };
    const errors = (logs.results ?? []).map((l) => JSON.stringify((l as { log?: unknown }).log)).filter((l) => /error/i.test(l));
    throw new Error(`the call ended with ${call.endedReason ?? 'no reason'}, not the customer's hang-up${errors.length ? `: ${errors.join('; ')}` : ''}`);
  }
  return { ms, seconds: (Date.parse(String(call.endedAt)) - Date.parse(String(call.startedAt))) / 1000 };
}

async function callRows(ctx: BenchContext): Promise<Row[]> {
  const model = await freshModel();
  const rounds = ctx.quick ? 1 : 7;
  const seconds: Record<'on' | 'off', number[]> = { on: [], off: [] };
  let round = 0;
  const task = (audio: boolean) => async (): Promise<number> => {
    const r = round;
    const emu = await startEmulator({ port: 0, speed: SPEED, audio, scenario: scenarioOf(r), model: { url: model.url, model: 'fake-llm' } });
    try {
      const done = await oneCall(emu, `Thanks for calling the bench house, this is line ${NUMBERS[r % NUMBERS.length] as string} on ${DAYS[r % DAYS.length] as string}.`);
      seconds[audio ? 'on' : 'off'].push(done.seconds);
      return done.ms;
    } finally {
      await emu.close();
    }
  };
  // A quick run (the smoke test) only proves a call works both ways: no warm-up round.
  const warmup = ctx.quick ? 0 : 1;
  try {
    const samples = await interleave(
      { on: task(true), off: task(false) },
      {
        warmup,
        rounds,
        onRound: (i) => {
          round = i + 1;
          ctx.log(`a call at --speed ${SPEED} with/without audio, round ${i + 1}`);
        },
      },
    );
    const mean = (xs: number[]): string => (xs.slice(warmup).reduce((a, b) => a + b, 0) / Math.max(1, xs.length - warmup)).toFixed(1);
    return [
      row({
        bench,
        metric: `a call at --speed ${SPEED} with audio (call placed to ended, wall; every line new)`,
        unit: 'ms',
        figure: samples.on as number[],
        reference: { label: 'the same call with --no-audio', figure: samples.off as number[] },
        budget: { op: '<=', limit: 1.2, on: 'ratio' },
        note: `the calls last ${mean(seconds.on)} s with audio (the lines' real length) and ${mean(seconds.off)} s on the text timeline (estimated), on their own clock`,
      }),
    ];
  } finally {
    await model.close();
  }
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [metric, make] of [
    ['voice dev start, audio available', startRows],
    [`a call at --speed ${SPEED} with audio`, callRows],
  ] as const) {
    try {
      rows.push(...(await make(ctx)));
    } catch (error) {
      rows.push(errorRow(bench, metric, error));
    }
  }
  return rows;
}

/** Sound on voice dev: its start and a call's wall time. */
const benchmark: Benchmark = { name: bench, title: 'sound on voice dev: its start, and a call at --speed 20', run };
export default benchmark;
