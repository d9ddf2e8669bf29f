// Emulator capacity: requests per second and p50/p99 latency at concurrency 32 for a read
// (GET /assistant/{id}) and a write (POST /assistant), driven by raw undici from this process
// while the emulator runs in its own. Informational: design.md sets no budget for it.
import { Agent, request } from 'undici';
import { BENCH_KEY, assistantBody, seedAssistants, withEmulatorProcess } from './lib/emulator.js';
import { load } from './lib/load.js';
import type { LoadResult, Send } from './lib/load.js';
import { median, quantile, row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'emulator';
const CONCURRENCY = 32;

async function measure(ctx: BenchContext, url: string): Promise<Row[]> {
  const ids = await seedAssistants(url, 50);
  const dispatcher = new Agent({ connections: CONCURRENCY });
  const headers = { authorization: `Bearer ${BENCH_KEY}` };
  const ok = async (response: Awaited<ReturnType<typeof request>>): Promise<void> => {
    if (response.statusCode >= 300) throw new Error(`emulator answered HTTP ${response.statusCode}`);
    await response.body.text();
  };
  const sends: Record<string, Send> = {
    'read GET /assistant/{id}': async (i) => ok(await request(`${url}/assistant/${ids[i % ids.length]}`, { dispatcher, headers })),
    'write POST /assistant': async (i) =>
      ok(
        await request(`${url}/assistant`, {
          dispatcher,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(assistantBody(i)),
        }),
      ),
  };
  const rows: Row[] = [];
  try {
    for (const [label, send] of Object.entries(sends)) {
      const options = { concurrency: CONCURRENCY, durationMs: ctx.quick ? 50 : 1000, maxRequests: ctx.quick ? 40 : 100_000, recordLatency: true };
      await load(send, { ...options, durationMs: ctx.quick ? 20 : 300 });
      const runs: LoadResult[] = [];
      for (let round = 0; round < (ctx.quick ? 1 : 5); round++) runs.push(await load(send, options));
      const per = (pick: (latencies: number[]) => number): number[] => runs.map((r) => pick(r.latencies));
      rows.push(
        row({ bench, metric: `${label} c=${CONCURRENCY} throughput`, unit: 'req/s', figure: runs.map((r) => r.perSecond) }),
        row({ bench, metric: `${label} c=${CONCURRENCY} p50 latency`, unit: 'ms', figure: per((l) => median(l)) }),
        row({ bench, metric: `${label} c=${CONCURRENCY} p99 latency`, unit: 'ms', figure: per((l) => quantile(l, 0.99)) }),
      );
    }
  } finally {
    await dispatcher.close();
  }
  return rows;
}

const benchmark: Benchmark = {
  name: bench,
  title: `emulator req/s and latency at concurrency ${CONCURRENCY} (informational; medians of 5 one-second runs)`,
  async run(ctx): Promise<Row[]> {
    return withEmulatorProcess(ctx, (url) => measure(ctx, url));
  },
};

export default benchmark;
