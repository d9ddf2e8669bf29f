// The model step's own overhead: from the moment a loopback model writes its first token to the
// step's first onDelta, against reading the same stream directly (fetch and the body's first bytes
// holding the token). Rounds alternate the two readers so they share the machine's state; the
// budget is on the median of the per-round differences (p50 <= 2 ms added).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createModelGateway } from 'voice-agent-core/model';
import { quantile, row, summarize } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'model-step';
const chunk = (delta: Record<string, unknown>): string => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
const WORDS = ['Your ', 'parcel ', 'arrives ', 'on ', 'Tuesday ', 'before ', 'noon.'];
const THINK_MS = 3;

/** A model that waits THINK_MS, notes the time, writes its first token, then the rest of the answer. */
async function startModel(): Promise<{ url: string; firstTokenAt: number[]; server: Server }> {
  const firstTokenAt: number[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: '' }));
      setTimeout(() => {
        firstTokenAt.push(performance.now());
        res.write(chunk({ content: WORDS[0] }));
        for (const w of WORDS.slice(1)) res.write(chunk({ content: w }));
        res.end('data: [DONE]\n\n');
      }, THINK_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, firstTokenAt, server };
}

const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Where is my parcel?' }], stream: true });

/** The reference: fetch, then read until the bytes holding the first token arrive. */
async function direct(url: string): Promise<number> {
  const res = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const decoder = new TextDecoder();
  let seen = '';
  let at = Number.NaN;
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    seen += decoder.decode(bytes, { stream: true });
    if (Number.isNaN(at) && seen.includes(WORDS[0] as string)) at = performance.now();
  }
  return at;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const model = await startModel();
  const gateway = createModelGateway({}, { credential: () => undefined });
  const assistant = { model: { provider: 'custom-llm', url: model.url, model: 'm' } };
  const rounds = ctx.quick ? 20 : 400;
  const ours: number[] = [];
  const theirs: number[] = [];
  try {
    for (let i = 0; i < rounds + 10; i++) {
      let first = Number.NaN;
      const result = await gateway.step({
        assistant,
        tools: [],
        messages: [{ role: 'user', content: 'Where is my parcel?' }],
        onDelta: () => {
          if (Number.isNaN(first)) first = performance.now();
        },
      });
      if (!result.ok) throw new Error(result.message);
      const ourLag = first - (model.firstTokenAt.at(-1) as number);
      const directAt = await direct(model.url);
      const theirLag = directAt - (model.firstTokenAt.at(-1) as number);
      if (i >= 10) {
        // The first rounds warm up connections and the JIT.
        ours.push(ourLag);
        theirs.push(theirLag);
      }
    }
  } finally {
    model.server.closeAllConnections();
    model.server.close();
  }
  const added = ours.map((v, i) => v - (theirs[i] as number));
  const f = (v: number): string => v.toFixed(3);
  ctx.log(`model-step: ${rounds} rounds; ours p50 ${f(quantile(ours, 0.5))} p99 ${f(quantile(ours, 0.99))} ms, direct p50 ${f(quantile(theirs, 0.5))} p99 ${f(quantile(theirs, 0.99))} ms`);
  return [
    row({
      bench,
      metric: "added latency, model's first token -> the step's first onDelta, p50 (per-round difference from a direct read)",
      unit: 'ms',
      figure: added,
      budget: { op: '<=', limit: 2, on: 'figure' },
      note: `${rounds} rounds; added p99 ${f(quantile(added, 0.99))} ms`,
    }),
    row({
      bench,
      metric: "model's first token -> first onDelta, p50",
      unit: 'ms',
      figure: summarize(ours),
      reference: { label: 'direct read of the same stream', figure: summarize(theirs) },
    }),
    row({
      bench,
      metric: "model's first token -> first onDelta, p99",
      unit: 'ms',
      figure: quantile(ours, 0.99),
      reference: { label: 'direct read of the same stream', figure: quantile(theirs, 0.99) },
    }),
  ];
}

/** The model step overhead benchmark. */
const benchmark: Benchmark = { name: bench, title: 'model step overhead (first token to first onDelta)', run };

export default benchmark;
