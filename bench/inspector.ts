// The `voice dev` inspector: start-up of `voice dev` with it vs `--no-inspector` (launch to the
// URL on stdout, interleaved), and Lighthouse accessibility of the calls list and a call's view
// (a call run on `voice dev --speed 50` first).
import { spawn } from 'node:child_process';
import { checkCliBuild } from './lib/freshness.js';
import { lighthouseAccessibility } from './lib/lighthouse.js';
import { interleave } from './lib/sample.js';
import { errorRow, row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'inspector';

/** Starts `voice dev` on a free port; resolves with its URL, the ms to it, and a stop function. */
function startDev(ctx: BenchContext, args: string[]): Promise<{ url: string; ms: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/voice.js', 'dev', '--port', '0', '--quiet', ...args], { cwd: ctx.root, stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGINT');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`voice dev exited ${code}`)));
    child.stdout.once('data', (d: Buffer) => resolve({ url: d.toString().trim(), ms: performance.now() - started, stop }));
  });
}

async function startRows(ctx: BenchContext): Promise<Row[]> {
  const once = (args: string[]) => async (): Promise<number> => {
    const dev = await startDev(ctx, args);
    await dev.stop();
    return dev.ms;
  };
  const rounds = ctx.quick ? 2 : 15;
  const samples = await interleave({ on: once([]), off: once(['--no-inspector']) }, { warmup: 1, rounds, onRound: (i) => ctx.log(`voice dev start round ${i + 1}`) });
  return [
    row({
      bench,
      metric: 'voice dev start, inspector on (launch to URL)',
      unit: 'ms',
      figure: samples.on as number[],
      reference: { label: '--no-inspector', figure: samples.off as number[] },
      budget: { op: '<=', limit: 1.05, on: 'ratio' },
    }),
  ];
}

async function endedCall(url: string): Promise<string> {
  const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' };
  const post = async (path: string, body: unknown): Promise<{ id: string }> => (await (await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { id: string };
  const assistant = await post('/assistant', { name: 'Bench', firstMessage: 'Hello from the bench.' });
  const call = await post('/call', { assistantId: assistant.id, customer: { number: '+14155550100' } });
  for (let i = 0; i < 600; i++) {
    const c = (await (await fetch(`${url}/call/${call.id}`, { headers })).json()) as { status: string };
    if (c.status === 'ended') return call.id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the call did not end within 30 s');
}

async function accessibilityRows(ctx: BenchContext): Promise<Row[]> {
  const dev = await startDev(ctx, ['--speed', '50']);
  try {
    const id = await endedCall(dev.url);
    const pages = { 'calls list': '#/calls', "a call's view": `#/calls/${id}` };
    const rows: Row[] = [];
    for (const [name, hash] of Object.entries(pages)) {
      try {
        const run = await lighthouseAccessibility(`${dev.url}/__voice/inspector/${hash}`, ctx.tmp);
        rows.push(row({ bench, metric: `Lighthouse accessibility, ${name}`, unit: 'score', figure: run.score, budget: { op: '>=', limit: 95, on: 'figure' }, ...(run.failed.length ? { note: `failed: ${run.failed.join(', ')}` } : {}) }));
      } catch (error) {
        rows.push(errorRow(bench, `Lighthouse accessibility, ${name}`, error));
      }
    }
    return rows;
  } finally {
    await dev.stop();
  }
}

const benchmark: Benchmark = {
  name: bench,
  title: '`voice dev` inspector: start-up cost and accessibility',
  async run(ctx) {
    const stale = checkCliBuild(ctx.root);
    if (stale) return [errorRow(bench, 'build', new Error(stale))];
    return [...(await startRows(ctx)), ...(await accessibilityRows(ctx))];
  },
};

export default benchmark;
