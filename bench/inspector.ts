// The `voice dev` inspector: start-up of `voice dev` with it vs `--no-inspector` (launch to the
// URL on stdout, interleaved), and Lighthouse accessibility of each view (calls, a call, chats, deliveries, requests, resources)
// (a call run on `voice dev --speed 50` first), and REST p99 during 100 calls with the page open
// in Chromium vs without it.
import { chromium } from 'playwright-core';
import { developerServer } from './calls.js';
import { CHROMIUM, CHROMIUM_FLAGS } from './lib/lighthouse.js';
import { load } from './lib/load.js';
import { settled, treeCpuMs } from './lib/cpu-time.js';
import { checkCliBuild } from './lib/freshness.js';
import { lighthouseAccessibility } from './lib/lighthouse.js';
import { interleave } from './lib/sample.js';
import { errorRow, quantile, row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';
import { startVoiceDev, voiceDevStartMs } from './lib/voice-dev.js';

const bench = 'inspector';

async function startRows(ctx: BenchContext): Promise<Row[]> {
  const once = (args: string[]) => (): Promise<number> => voiceDevStartMs(ctx.root, args);
  // A launch of about 250 ms swings by about 8% either way (quartiles of 40 alternating launches;
  // with and without the inspector the medians were 247.6 and 247.9 ms): each round's sample is the
  // median of eleven launches, over nine rounds, so the rounds' spread can tell a 5% budget (five
  // over 21 still left an IQR of 0.97-1.08x around a median of 1.01x).
  const rounds = ctx.quick ? 2 : 9;
  const samples = await interleave({ on: once([]), off: once(['--no-inspector']) }, { warmup: 1, rounds, perRound: ctx.quick ? 1 : 11, onRound: (i) => ctx.log(`voice dev start round ${i + 1}`) });
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
  const dev = await startVoiceDev(ctx.root, ['--speed', '50']);
  try {
    const id = await endedCall(dev.url);
    const pages = { 'calls list': '#/calls', "a call's view": `#/calls/${id}`, chats: '#/chats', deliveries: '#/deliveries', requests: '#/requests', resources: '#/resources' };
    // A quick run checks the machinery on one view (each Lighthouse run costs about 8 s); a full run audits them all.
    const audited = Object.entries(pages).slice(0, ctx.quick ? 1 : undefined);
    const rows: Row[] = [];
    for (const [name, hash] of audited) {
      try {
        const run = await lighthouseAccessibility(`${dev.url}/__voice/inspector/${hash}`, ctx.tmp);
        rows.push(
          row({
            bench,
            metric: `Lighthouse accessibility, ${name}`,
            unit: 'score',
            figure: run.score,
            budget: { op: '>=', limit: 95, on: 'figure' },
            ...(run.failed.length ? { note: `failed: ${run.failed.join(', ')}` } : {}),
          }),
        );
      } catch (error) {
        rows.push(errorRow(bench, `Lighthouse accessibility, ${name}`, error));
      }
    }
    return rows;
  } finally {
    await dev.stop();
  }
}

/** What one busy run measured: the REST p99 and the CPU the emulator and the browser used from the first call to the last REST answer. */
interface Busy {
  p99: number;
  /** Seconds from the first call to the last REST answer. */
  seconds: number;
  emulatorCpuMs: number | undefined;
  browserCpuMs: number | undefined;
  /** With the page open: whether Chromium settled before the calls started. */
  settled?: boolean;
}

/** REST p99 (GET /assistant/{id}, c=4) while `calls` calls run on a fresh `voice dev --speed 50`, the inspector open or not. */
async function busyP99(ctx: BenchContext, withPage: boolean): Promise<Busy> {
  const dev = await startVoiceDev(ctx.root, ['--speed', '50']);
  const server = await developerServer();
  const browser = withPage ? await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS }) : undefined;
  try {
    const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' };
    const post = async (path: string, body: unknown): Promise<{ id: string }> =>
      (await (await fetch(dev.url + path, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { id: string };
    const assistant = await post('/assistant', {
      name: 'Bench caller',
      firstMessage: 'Hello, how can I help?',
      model: {
        provider: 'openai',
        model: 'gpt-4o-mini',
        tools: [{ type: 'function', function: { name: 'book', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday'] } } } } }],
      },
      server: { url: server.url },
    });
    if (browser) {
      const page = await browser.newPage();
      await page.goto(`${dev.url}/__voice/inspector/`);
      await page.getByText('Live', { exact: true }).waitFor();
    }
    const read = async (): Promise<void> => void (await (await fetch(`${dev.url}/assistant/${assistant.id}`, { headers })).arrayBuffer());
    const calls = ctx.quick ? 10 : 100;
    // The browser: this process's other descendants (Chromium's processes), not the emulator nor the developer's server.
    const browserCpu = (): number | undefined => (browser ? treeCpuMs(process.pid, { withRoot: false, except: [dev.pid, server.pid] }) : 0);
    // A developer's inspector is open before the calls come: the calls start once Chromium has
    // finished starting and drawing the page (under 5% of a core over 250 ms), so the window
    // holds what the open page costs during calls, not the tail of the browser's launch.
    const quiet = browser ? await settled(browserCpu) : undefined;
    const before = { emulator: treeCpuMs(dev.pid), browser: browserCpu(), at: performance.now() };
    await Promise.all(Array.from({ length: calls }, (_, i) => post('/call', { assistantId: assistant.id, customer: { number: `+1415555${String(1000 + i)}` } })));
    const busy = await load(read, { concurrency: 4, durationMs: ctx.quick ? 200 : 1000, maxRequests: 100_000, recordLatency: true });
    const after = { emulator: treeCpuMs(dev.pid), browser: browserCpu() };
    const spent = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined || b === undefined ? undefined : a - b);
    return {
      p99: quantile(busy.latencies, 0.99),
      seconds: (performance.now() - before.at) / 1000,
      emulatorCpuMs: spent(after.emulator, before.emulator),
      browserCpuMs: spent(after.browser, before.browser),
      ...(quiet === undefined ? {} : { settled: quiet }),
    };
  } finally {
    await browser?.close();
    await server.close();
    await dev.stop();
  }
}

async function restRows(ctx: BenchContext): Promise<Row[]> {
  // A p99 over about a second swings with whatever else the two cores run: the emulator is busy
  // the whole window (its CPU about equals the window), so a request's wait is a queue's, and one
  // collection or one batch of call steps more or less moves a run's p99 by a third. With one
  // run of each per round the ratio of two such p99s spread past the budget in one full run in
  // three while the page cost the emulator no CPU (1.21x, IQR 1.01-1.63x; 1.02x, IQR to 2.12x).
  // Three runs of each per round, the round's p99 their median, as the launch rows do.
  const rounds = ctx.quick ? 1 : 9;
  const perRound = ctx.quick ? 1 : 3;
  // Every run, in the order interleave runs them (no warm-up rounds here), for the CPU row.
  const open: Busy[] = [];
  const closed: Busy[] = [];
  const sample = (withPage: boolean, into: Busy[]) => async (): Promise<number> => {
    const busy = await busyP99(ctx, withPage);
    into.push(busy);
    return busy.p99;
  };
  const p99s = await interleave({ open: sample(true, open), closed: sample(false, closed) }, { warmup: 0, rounds, perRound, onRound: (i) => ctx.log(`REST p99 with the page round ${i + 1}`) });
  const calls = ctx.quick ? 10 : 100;
  const rows = [
    row({
      bench,
      metric: `REST p99 (GET /assistant/{id}, c=4) during ${calls} calls, inspector open in Chromium`,
      unit: 'ms',
      figure: p99s.open as number[],
      reference: { label: 'no page open', figure: p99s.closed as number[] },
      budget: { op: '<=', limit: 1.5, on: 'ratio' },
      note: `each round's p99 the median of ${perRound} runs; p99 on a shared machine is noisy; the page also takes CPU to render; calls started once Chromium had settled in ${open.filter((b) => b.settled).length} of ${open.length} open runs`,
    }),
  ];
  // CPU time hardly depends on the machine's other load: what the open page costs, in the same window.
  const known = (list: (number | undefined)[]): number[] | undefined => (list.every((v) => v !== undefined) ? (list as number[]) : undefined);
  const emulatorOpen = known(open.map((b) => b.emulatorCpuMs));
  const emulatorClosed = known(closed.map((b) => b.emulatorCpuMs));
  const browser = known(open.map((b) => b.browserCpuMs));
  if (emulatorOpen && emulatorClosed && browser) {
    rows.push(
      row({
        bench,
        metric: `CPU of the emulator and Chromium from the first of ${calls} calls to the last REST answer, inspector open`,
        unit: 'ms',
        figure: emulatorOpen.map((e, i) => e + (browser[i] as number)),
        reference: { label: 'the emulator, no page open', figure: emulatorClosed },
        note: `of which Chromium: ${browser.map((v) => v.toFixed(0)).join(', ')} ms; the emulator: ${emulatorOpen.map((v) => v.toFixed(0)).join(', ')} ms (Linux /proc); windows of ${open.map((b) => b.seconds.toFixed(1)).join(', ')} s open, ${closed.map((b) => b.seconds.toFixed(1)).join(', ')} s closed (the calls run on after them)`,
      }),
    );
  }
  return rows;
}

const benchmark: Benchmark = {
  name: bench,
  title: '`voice dev` inspector: start-up cost and accessibility',
  async run(ctx) {
    const stale = checkCliBuild(ctx.root);
    if (stale) return [errorRow(bench, 'build', new Error(stale))];
    return [...(await startRows(ctx)), ...(await accessibilityRows(ctx)), ...(await restRows(ctx))];
  },
};

export default benchmark;
