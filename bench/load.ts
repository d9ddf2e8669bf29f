// `voice load`'s generator: (1) deliveries per second against a trivial loopback server, against
// autocannon hammering the same server in the same run (the generator must not be the
// bottleneck: budget >= 0.7x); (2) its timing error, reported answer time minus the delay the
// server injects, per delivery (budget p99 <= 5 ms). Each server runs in its own process; the
// generator and autocannon run in this one, in alternating rounds.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { recordCalls, runLoad } from '#core/load/index';
import type { LoadResult } from '#core/load/index';
import { quantile, row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'load';
const ALL = ['status-update', 'assistant.started', 'speech-update', 'transcript', 'conversation-update', 'model-output', 'tool-calls', 'user-interrupted', 'end-of-call-report'];

// Answers every message after the delay its type has in DELAYS (ms), as a developer's server would.
const SERVER = `
const { createServer } = require('node:http');
const delays = JSON.parse(process.env.DELAYS || '{}');
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const { message } = JSON.parse(Buffer.concat(chunks).toString());
    const answer = message.type === 'assistant-request' ? { assistantId: 'a1' } : message.type === 'tool-calls' ? { results: message.toolCallList.map((c) => ({ toolCallId: c.id, result: 'Booked.' })) } : {};
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    const ms = delays[message.type] || 0;
    if (ms) setTimeout(send, ms); else send();
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0)).resume();
`;

async function server(delays: Record<string, number>): Promise<{ url: string; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, DELAYS: JSON.stringify(delays) } });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    url: `http://127.0.0.1:${port.trim()}/hook`,
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

function assistant(url: string): Record<string, unknown> {
  return {
    name: 'Bench',
    firstMessage: 'Hello, how can I help?',
    serverMessages: ALL,
    server: { url },
    model: {
      provider: 'openai',
      model: 'gpt-4o-mini',
      tools: [{ type: 'function', function: { name: 'book', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday'] } } } } }],
    },
  };
}

interface Cannon {
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}

/**
 * A body of the load run's typical size: the message of one real call (every type, recorded as
 * the run sends it) nearest to the mean size of all of them. The server reads and parses every
 * body, so a reference sending smaller bodies than the run would find a faster server.
 */
async function typicalBody(url: string): Promise<{ body: string; mean: number }> {
  const bodies = (await recordCalls({ assistant: assistant(url), calls: 2 })).flatMap((c) => c.messages.map((k) => JSON.stringify({ message: k.message })));
  const mean = bodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0) / bodies.length;
  const body = bodies.reduce((best, b) => (Math.abs(Buffer.byteLength(b) - mean) < Math.abs(Buffer.byteLength(best) - mean) ? b : best));
  return { body, mean };
}

/** Autocannon at `connections`, posting `body`, for `seconds`. */
async function cannon(url: string, body: string, connections: number, seconds: number): Promise<Cannon> {
  const { default: autocannon } = await import('autocannon');
  return autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'autocannon' },
    body,
    connections,
    pipelining: 1,
    duration: seconds,
  });
}

async function throughput(ctx: BenchContext): Promise<Row[]> {
  const s = await server({});
  const calls = ctx.quick ? 20 : 200;
  // Nine rounds: a run of 200 calls of ours takes 0.35 to 0.65 s of the same work (its CPU time
  // varies as much: this VM's cores are not steady), so a 3 s round reads 15 to 22 k/s; with three
  // rounds one slow round, with five two, moved the IQR to the budget's edge (0.74x, IQR
  // 0.68-0.81x; 0.88x, IQR 0.70-0.93x), and with seven the IQR's low end, from the second or
  // third value, still fell under 0.70x in one full run in three.
  const rounds = ctx.quick ? 1 : 9;
  const seconds = ctx.quick ? 1 : 3;
  const ours: number[] = [];
  const theirs: number[] = [];
  let failed = 0;
  const typical = await typicalBody(s.url);
  // A round of ours is as long as autocannon's: runs of `calls` calls at once, one after another,
  // until `seconds` have passed (a single run of 200 calls lasts well under a second).
  const runOurs = async (): Promise<void> => {
    const t0 = performance.now();
    let deliveries = 0;
    let runs = 0;
    while (performance.now() - t0 < seconds * 1000) {
      const r = await runLoad({ assistant: assistant(s.url), calls, speed: 10_000 });
      failed += r.errors;
      deliveries += r.deliveries;
      runs++;
    }
    const elapsed = (performance.now() - t0) / 1000;
    ours.push(deliveries / elapsed);
    ctx.log(`voice load: ${deliveries} deliveries in ${runs} runs, ${elapsed.toFixed(2)} s (${(deliveries / elapsed).toFixed(0)}/s)`);
  };
  const runTheirs = async (): Promise<void> => {
    const c = await cannon(s.url, typical.body, calls, seconds);
    failed += c.non2xx + c.errors;
    theirs.push(c.requests.average);
    ctx.log(`autocannon: ${c.requests.total} requests (${c.requests.average.toFixed(0)}/s)`);
  };
  try {
    // Warm-up: two rounds of ours (its compiled code keeps improving for about six seconds), one
    // of autocannon's; then alternating rounds: A B, B A, A B, ...
    await runOurs();
    await runOurs();
    await runTheirs();
    ours.length = 0;
    theirs.length = 0;
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        await runOurs();
        await runTheirs();
      } else {
        await runTheirs();
        await runOurs();
      }
    }
  } finally {
    await s.close();
  }
  return [
    row({
      bench,
      metric: `deliveries per second, ${calls} calls at once (every message type) vs autocannon at ${calls} connections, trivial loopback server`,
      unit: 'req/s',
      figure: ours,
      reference: { label: 'autocannon', figure: theirs },
      budget: { op: '>=', limit: 0.7, on: 'ratio' },
      note: `autocannon posts a ${Buffer.byteLength(typical.body)}-byte message, the run's mean being ${typical.mean.toFixed(0)} bytes; ${failed} failed deliveries or requests`,
    }),
  ];
}

// Delays per type, spread so that a delivery timed against the wrong type would show.
const DELAYS: Record<string, number> = {
  'assistant-request': 60,
  'status-update': 20,
  'speech-update': 5,
  transcript: 10,
  'conversation-update': 15,
  'tool-calls': 80,
  'end-of-call-report': 40,
  'assistant.started': 25,
  'model-output': 30,
  'user-interrupted': 35,
};

async function timingError(ctx: BenchContext): Promise<Row[]> {
  const s = await server(DELAYS);
  const results: LoadResult[] = [];
  try {
    for (let i = 0; i < (ctx.quick ? 1 : 3); i++) results.push(await runLoad({ assistant: assistant(s.url), calls: ctx.quick ? 4 : 20, rate: ctx.quick ? 40 : 10, speed: 20 }));
  } finally {
    await s.close();
  }
  const errors = results.flatMap((r) => r.samples.map((x) => x.ms - (DELAYS[x.type] ?? 0)));
  const p99s = results.map((r) =>
    quantile(
      r.samples.map((x) => x.ms - (DELAYS[x.type] ?? 0)).sort((a, b) => a - b),
      0.99,
    ),
  );
  const sorted = [...errors].sort((a, b) => a - b);
  return [
    row({
      bench,
      metric: 'timing error: reported answer time minus the injected delay, p99 per run',
      unit: 'ms',
      figure: p99s,
      budget: { op: '<=', limit: 5, on: 'figure' },
      note: `${errors.length} deliveries; error p50 ${quantile(sorted, 0.5).toFixed(2)} ms, min ${(sorted[0] ?? 0).toFixed(2)} ms, max ${(sorted[sorted.length - 1] ?? 0).toFixed(2)} ms`,
    }),
  ];
}

const benchmark: Benchmark = {
  name: bench,
  title: 'voice load: deliveries/s >= 0.7x autocannon on the same server; timing error p99 <= 5 ms',
  async run(ctx): Promise<Row[]> {
    return [...(await throughput(ctx)), ...(await timingError(ctx))];
  },
};

export default benchmark;
