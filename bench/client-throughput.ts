// Client throughput on loopback: requests per second for GET /assistant/{id} and POST /assistant
// at concurrency 1 and 32, our client beside raw `undici.request` and the platform's server SDK,
// all against one emulator in its own process, in interleaved rounds.
import { VapiClient } from '@vapi-ai/server-sdk';
import type { Vapi } from '@vapi-ai/server-sdk';
import { Agent, request } from 'undici';
import { baseHeaders } from '../core/client/build.js';
import { createClient } from '../core/client/node.js';
import { BENCH_KEY, assistantBody, seedAssistants, withEmulatorProcess } from './lib/emulator.js';
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

/** Measures one operation at one concurrency for every client, in interleaved rounds. */
async function measureOne(ctx: BenchContext, all: Record<string, Record<Op, Send>>, op: Op, concurrency: number): Promise<Row[]> {
  const options = { concurrency, durationMs: ctx.quick ? 50 : 500, maxRequests: ctx.quick ? 20 : 20_000 };
  const tasks = Object.fromEntries(Object.entries(all).map(([name, sends]) => [name, async () => (await load(sends[op], options)).perSecond]));
  const samples = await interleave(tasks, { warmup: 1, rounds: ctx.quick ? 1 : 11 });
  const label = `${op === 'get' ? 'GET /assistant/{id}' : 'POST /assistant'} c=${concurrency}`;
  const ours = samples.ours as number[];
  ctx.log(`${label} done`);
  return [
    row({
      bench,
      metric: `${label} ours vs undici.request`,
      unit: 'req/s',
      figure: ours,
      reference: { label: 'undici.request', figure: samples.undici as number[] },
      budget: { op: '>=', limit: 0.95, on: 'ratio' },
    }),
    row({
      bench,
      metric: `${label} ours vs server SDK`,
      unit: 'req/s',
      figure: ours,
      reference: { label: '@vapi-ai/server-sdk', figure: samples['server-sdk'] as number[] },
      budget: { op: '>=', limit: 1.5, on: 'ratio' },
    }),
  ];
}

async function measure(ctx: BenchContext, url: string): Promise<Row[]> {
  const ids = await seedAssistants(url, 50);
  const { sends, close } = clients(url, ids);
  const rows: Row[] = [];
  try {
    for (const op of ['get', 'create'] as const) {
      for (const concurrency of [1, 32]) rows.push(...(await measureOne(ctx, sends, op, concurrency)));
    }
  } finally {
    await close();
  }
  return rows;
}

const benchmark: Benchmark = {
  name: bench,
  title: 'REST client requests/s on loopback against the emulator (own process), ratios are medians of per-round ratios',
  async run(ctx): Promise<Row[]> {
    return withEmulatorProcess(ctx, (url) => measure(ctx, url));
  },
};

export default benchmark;
