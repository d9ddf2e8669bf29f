// Calls at load: 100 simulated calls at once at --speed 50 against a loopback server standing in
// for the developer's (it answers tool calls). Every call must end with every delivery made, and
// REST must keep answering: its p99 while the calls run against its p99 when idle (budget <= 3x).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { BENCH_KEY, withEmulatorProcess } from './lib/emulator.js';
import { load } from './lib/load.js';
import { quantile, row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'calls';
const SPEED = 50;
// Rounds of 100 calls whose REST p99 is compared (after the warm-up round): a p99 over one second
// swings with whatever else the two cores run.
const MEASURED_ROUNDS = 7;

interface Delivery {
  type: string;
  callId: string;
  sentAt: string;
  status?: number;
  error?: string;
  ms: number;
}

// The developer's server runs in its own process, so its work never delays the REST requests
// this process times. It answers tool calls and counts end-of-call reports (GET /reports).
const SERVER = `
const { createServer } = require('node:http');
const reports = new Set();
const server = createServer((req, res) => {
  if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([...reports]));
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const { message } = JSON.parse(body);
    if (message.type === 'end-of-call-report' && message.call) reports.add(message.call.id);
    const answer = message.type === 'tool-calls' ? { results: (message.toolCallList || []).map((c) => ({ toolCallId: c.id, result: 'Booked.' })) } : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0)).resume();
`;

/** The developer's server in its own process (answers tool calls, counts end-of-call reports). */
export async function developerServer(): Promise<{ url: string; pid: number | undefined; reports: () => Promise<Set<string>>; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const url = `http://127.0.0.1:${port.trim()}`;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    url,
    pid: child.pid,
    reports: async () => new Set((await (await fetch(`${url}/reports`)).json()) as string[]),
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

async function measure(ctx: BenchContext, url: string): Promise<Row[]> {
  const dev = await developerServer();
  const dispatcher = new Agent({ connections: 8 });
  const headers = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };
  const json = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await request(`${url}${path}`, { dispatcher, method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${path} answered HTTP ${res.statusCode}`);
    return (await res.body.json()) as Record<string, unknown>;
  };
  try {
    const assistant = await json('POST', '/assistant', {
      name: 'Bench caller',
      firstMessage: 'Hello, how can I help?',
      model: {
        provider: 'openai',
        model: 'gpt-4o-mini',
        tools: [{ type: 'function', function: { name: 'book', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday'] } } } } }],
      },
      server: { url: dev.url },
    });
    const read = async (): Promise<void> => void (await json('GET', `/assistant/${String(assistant.id)}`));
    const rest = { concurrency: 4, durationMs: ctx.quick ? 100 : 1000, maxRequests: ctx.quick ? 40 : 100_000, recordLatency: true };
    await load(read, { ...rest, durationMs: 100 });
    const calls = ctx.quick ? 10 : 100;
    // One round: REST p99 idle, then 100 calls started at once and REST p99 while they run.
    const round = async (): Promise<{ idleP99: number; busyP99: number; ended: number; deliveries: Delivery[]; seconds: number }> => {
      const idle = await load(read, rest);
      const started = performance.now();
      const ids = await Promise.all(
        Array.from({ length: calls }, (_, i) => json('POST', '/call', { assistantId: assistant.id, customer: { number: `+1415555${String(1000 + i)}` } }).then((c) => String(c.id))),
      );
      const busy = await load(read, rest);
      const deadline = performance.now() + 60_000;
      let reports = await dev.reports();
      while (ids.some((id) => !reports.has(id)) && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        reports = await dev.reports();
      }
      const seconds = (performance.now() - started) / 1000;
      const mine = new Set(ids);
      const deliveries = ((await json('GET', '/__voice/deliveries')) as unknown as Delivery[]).filter((d) => mine.has(d.callId));
      const ended = ids.filter((id) => reports.has(id)).length;
      ctx.log(`${calls} calls: ${ended} ended, ${deliveries.length} deliveries in ${seconds.toFixed(1)} s`);
      return { idleP99: quantile(idle.latencies, 0.99), busyP99: quantile(busy.latencies, 0.99), ended, deliveries, seconds };
    };
    // A warm-up round first: the first calls after start run the call engine's code for the first
    // time (compiling it), which no later round does. Its deliveries count; its p99s are only noted.
    const rounds = [];
    for (let i = 0; i < (ctx.quick ? 1 : 1 + MEASURED_ROUNDS); i++) rounds.push(await round());
    const [warmup] = rounds;
    const measured = rounds.length > 1 ? rounds.slice(1) : rounds;
    const deliveries = rounds.flatMap((r) => r.deliveries);
    const failed = deliveries.filter((d) => d.error || d.status !== 200).length;
    const ended = rounds.reduce((sum, r) => sum + r.ended, 0);
    const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
    const total = calls * rounds.length;
    return [
      row({
        bench,
        metric: `${calls} calls at --speed ${SPEED} (x${rounds.length} rounds, warm-up included): calls ended with their end-of-call report`,
        unit: 'calls',
        figure: ended,
        budget: { op: '>=', limit: total, on: 'figure' },
      }),
      row({
        bench,
        metric: 'deliveries made (answered 200)',
        unit: 'share',
        figure: deliveries.length ? (deliveries.length - failed) / deliveries.length : 0,
        budget: { op: '>=', limit: 1, on: 'figure' },
        note: `${deliveries.length} deliveries`,
      }),
      row({ bench, metric: 'deliveries per second', unit: 'deliveries/s', figure: deliveries.length / seconds }),
      row({
        bench,
        metric: 'delivery p99 delay (send to answer)',
        unit: 'ms',
        figure: quantile(
          deliveries.map((d) => d.ms),
          0.99,
        ),
      }),
      row({
        bench,
        metric: `REST p99 (GET /assistant/{id}, c=4) during ${calls} calls vs idle, per round`,
        unit: 'ms',
        figure: measured.map((r) => r.busyP99),
        reference: { label: 'idle', figure: measured.map((r) => r.idleP99) },
        budget: { op: '<=', limit: 3, on: 'ratio' },
        ...(warmup && measured[0] !== warmup
          ? { note: `after a warm-up round (the first calls since start): idle ${warmup.idleP99.toFixed(2)} ms, during the calls ${warmup.busyP99.toFixed(2)} ms` }
          : {}),
      }),
    ];
  } finally {
    await dispatcher.close();
    await dev.close();
  }
}

const benchmark: Benchmark = {
  name: bench,
  title: `100 simulated calls at once at --speed ${SPEED}: every delivery made, REST p99 <= 3x idle`,
  async run(ctx): Promise<Row[]> {
    return withEmulatorProcess(ctx, (url) => measure(ctx, url), ['--speed', String(SPEED)]);
  },
};

export default benchmark;
