// Client throughput on loopback: requests per second for GET /assistant/{id} and POST /assistant
// at concurrency 1 and 32, our client beside raw `undici.request` and the platform's server SDK,
// in interleaved rounds, against a server in its own process that replays the emulator's answers
// (bench/replay-server.ts); the same at concurrency 32 against the emulator itself, as INFO.
import { VapiClient } from '@vapi-ai/server-sdk';
import type { Vapi } from '@vapi-ai/server-sdk';
import { Agent, request } from 'undici';
import { baseHeaders } from '#core/client/build';
import { createClient } from '#core/client/node';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_KEY, assistantBody, seedAssistants, startServerProcess, withEmulatorProcess } from './lib/emulator.js';
import type { Recorded } from './replay-server.js';
import { load } from './lib/load.js';
import type { Send } from './lib/load.js';
import { interleave } from './lib/sample.js';
import { row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'client-throughput';

type Op = 'get' | 'create';

/** The three clients, each turned into `send` functions for one operation. */
function clients(url: string, ids: string[]): { sends: Record<string, Record<Op, Send>>; close: () => Promise<void> } {
  const pick = (i: number): string => ids[i % ids.length] as string;
  const ours = createClient({ apiKey: BENCH_KEY, baseUrl: url, maxRetries: 0 });
  // Raw undici with its own keep-alive pool: the floor any Node HTTP client is measured against.
  const dispatcher = new Agent({ connections: 64 });
  // The very headers our client sends (accept, user-agent, authorization): the emulator's work per
  // request depends on them (it records each request's user agent), so a reference sending fewer
  // would be measured on a lighter workload (about 7% of POST throughput at c=32).
  const headers = baseHeaders({ apiKey: BENCH_KEY }, 'bearer');
  const rawJson = async (response: Awaited<ReturnType<typeof request>>): Promise<unknown> => {
    if (response.statusCode >= 300) throw new Error(`undici: HTTP ${response.statusCode}`);
    return response.body.json();
  };
  const sdk = new VapiClient({ token: BENCH_KEY, baseUrl: url, maxRetries: 0 });
  const sends: Record<string, Record<Op, Send>> = {
    ours: {
      get: (i) => ours.assistant.get(pick(i)),
      create: (i) => ours.assistant.create(assistantBody(i)),
    },
    undici: {
      get: async (i) => rawJson(await request(`${url}/assistant/${pick(i)}`, { dispatcher, headers })),
      create: async (i) =>
        rawJson(
          await request(`${url}/assistant`, {
            dispatcher,
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(assistantBody(i)),
          }),
        ),
    },
    'server-sdk': {
      get: (i) => sdk.assistants.get({ id: pick(i) }),
      create: (i) => sdk.assistants.create(assistantBody(i) as unknown as Vapi.CreateAssistantDto),
    },
  };
  return { sends, close: () => dispatcher.close() };
}

/** How the rows of one server are labelled and judged. */
interface Server {
  /** Appended to each metric (empty for the server the budgets are judged on). */
  suffix: string;
  budgets: boolean;
}

/** Measures one operation at one concurrency for every client, in interleaved rounds. */
async function measureOne(ctx: BenchContext, all: Record<string, Record<Op, Send>>, op: Op, concurrency: number, server: Server): Promise<Row[]> {
  const options = { concurrency, durationMs: ctx.quick ? 50 : 500, maxRequests: ctx.quick ? 20 : 20_000 };
  const tasks = Object.fromEntries(Object.entries(all).map(([name, sends]) => [name, async () => (await load(sends[op], options)).perSecond]));
  const samples = await interleave(tasks, { warmup: ctx.quick ? 0 : 1, rounds: ctx.quick ? 1 : 11 });
  const label = `${op === 'get' ? 'GET /assistant/{id}' : 'POST /assistant'} c=${concurrency}`;
  const ours = samples.ours as number[];
  ctx.log(`${label}${server.suffix} done`);
  return [
    row({
      bench,
      metric: `${label} ours vs undici.request${server.suffix}`,
      unit: 'req/s',
      figure: ours,
      reference: { label: 'undici.request', figure: samples.undici as number[] },
      ...(server.budgets ? { budget: { op: '>=' as const, limit: 0.95, on: 'ratio' as const } } : {}),
    }),
    row({
      bench,
      metric: `${label} ours vs server SDK${server.suffix}`,
      unit: 'req/s',
      figure: ours,
      reference: { label: '@vapi-ai/server-sdk', figure: samples['server-sdk'] as number[] },
      ...(server.budgets ? { budget: { op: '>=' as const, limit: 1.5, on: 'ratio' as const } } : {}),
    }),
  ];
}

async function measure(ctx: BenchContext, url: string, ids: string[], concurrencies: number[], server: Server): Promise<Row[]> {
  const { sends, close } = clients(url, ids);
  const rows: Row[] = [];
  try {
    for (const op of ['get', 'create'] as const) {
      for (const concurrency of concurrencies) rows.push(...(await measureOne(ctx, sends, op, concurrency, server)));
    }
  } finally {
    await close();
  }
  return rows;
}

/** The emulator's answers to one GET and one POST, as the replay server gives them back. */
async function record(url: string, id: string): Promise<Record<string, Recorded>> {
  const headers = baseHeaders({ apiKey: BENCH_KEY }, 'bearer');
  const answer = async (response: Response): Promise<Recorded> => {
    const kept: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) kept[name] = value;
    });
    return { status: response.status, headers: kept, body: await response.text() };
  };
  return {
    GET: await answer(await fetch(`${url}/assistant/${id}`, { headers })),
    POST: await answer(await fetch(`${url}/assistant`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(assistantBody(0)) })),
  };
}

const benchmark: Benchmark = {
  name: bench,
  title: 'REST client requests/s on loopback (answers replayed from the emulator; the emulator itself at c=32 as INFO), ratios are medians of per-round ratios',
  async run(ctx): Promise<Row[]> {
    // Against the emulator, at 32 requests in flight the server is the slower side (about 60 µs
    // of CPU per POST against the client's 40): those rows say what a local emulator serves.
    const emulated: Row[] = [];
    let answers: Record<string, Recorded> = {};
    let ids: string[] = [];
    await withEmulatorProcess(ctx, async (url) => {
      ids = await seedAssistants(url, 50);
      answers = await record(url, ids[0] as string);
      emulated.push(...(await measure(ctx, url, ids, [32], { suffix: ', emulator as server', budgets: false })));
    });
    // The budgets: the same requests answered by a server that replays the emulator's answers at
    // a fraction of a client's cost per request, so the clients are what is measured.
    const file = join(ctx.tmp, 'replayed-answers.json');
    writeFileSync(file, JSON.stringify(answers));
    const replay = await startServerProcess(ctx, 'VOICE_BENCH_REPLAY_ENTRY', [file]);
    try {
      return [...(await measure(ctx, replay.url, ids, [1, 32], { suffix: '', budgets: true })), ...emulated];
    } finally {
      await replay.close();
    }
  },
};

export default benchmark;
