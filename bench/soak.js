#!/usr/bin/env node
// `npm run soak`: `voice dev` left running for a long while. Runs N calls (default 20,000) through
// the built `voice dev --speed 100 --data FILE` with the inspector open in Chromium and a developer
// server answering every message, and samples, every few seconds: the emulator's RSS and
// event-loop delay (its /__voice/health), REST p99 of a steady probe, the data file's size.
// Prints the figures, writes the chart to bench/soak/latest.svg (committed: bench/README shows it)
// and every sample to bench/results/soak.json (not committed, like every bench result), and exits 1 when a bound is
// broken (a run with fewer than 10 samples judges nothing and fails): memory and data file must
// level off (the last half no higher than 1.5x the level reached
// by the second tenth), and REST p99 in the last tenth within 1.5x of the first tenth.
// Loopback only; bounded in calls (--calls) and time (--max-minutes).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { quantile, soakChecks } from './lib/soak-verdict.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    speed: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '40' },
    // Requests placing calls at once: each waits for the data file write that keeps its call (as a real client's would).
    placers: { type: 'string', default: '16' },
    'max-minutes': { type: 'string', default: '30' },
    'no-browser': { type: 'boolean', default: false },
    // Writes a CPU profile of `voice dev` (node --cpu-prof) into this folder when it exits.
    'cpu-prof': { type: 'string' },
    // The `voice` executable to run (default: this checkout's); a copy lets the checkout be rebuilt while a long run goes on.
    voice: { type: 'string', default: join(root, 'bin', 'voice.js') },
    out: { type: 'string', default: join(root, 'bench', 'soak') },
  },
});
const TOTAL = Number(args.calls);
const CONCURRENCY = Number(args.concurrency);
const PLACERS = Number(args.placers);
const DEADLINE = Date.now() + Number(args['max-minutes']) * 60_000;
const H = { authorization: 'Bearer soak', 'content-type': 'application/json' };
const dir = mkdtempSync(join(tmpdir(), 'voice-soak-'));
const dataFile = join(dir, 'soak.json');

/** The developer's server: answers tool calls, counts end-of-call reports (one per finished call). */
function developerServer(onReport) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let message = {};
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8')).message ?? {};
      } catch {
        // counted as nothing
      }
      if (message.type === 'end-of-call-report') onReport();
      const body = message.type === 'tool-calls' ? { results: (message.toolCallList ?? []).map((t) => ({ toolCallId: t.id, result: 'Booked for Tuesday at 10.' })) } : {};
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() })));
}

function startDev() {
  const prof = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', resolve(args['cpu-prof'])] : [];
  const child = spawn(process.execPath, [...prof, resolve(args.voice), 'dev', '--port', '0', '--speed', args.speed, '--data', dataFile, '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`voice dev exited with ${code}`)));
    child.stdout.once('data', (d) => ok({ child, url: d.toString().trim().split('\n')[0] }));
  });
}

/** CPU seconds the emulator process has used (user + system, from /proc; null elsewhere): the machine may be shared. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

const report = { started: new Date().toISOString(), calls: TOTAL, speed: Number(args.speed), concurrency: CONCURRENCY, placers: PLACERS, browser: !args['no-browser'], samples: [] };
let finished = 0;
let placed = 0;
let failedPlacements = 0;
const dev = await startDev();
const hook = await developerServer(() => finished++);
let browser;
try {
  const assistant = await (
    await fetch(`${dev.url}/assistant`, {
      method: 'POST',
      headers: H,
      body: JSON.stringify({
        name: 'Soak',
        firstMessage: 'Thanks for calling, how can I help?',
        server: { url: hook.url },
        model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'book', parameters: { type: 'object', properties: { day: { type: 'string' } } } } }] },
      }),
    })
  ).json();
  if (!args['no-browser']) {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = await browser.newPage();
    await page.goto(`${dev.url}/__voice/inspector/`);
  }

  // A steady REST probe: one list request every 50 ms; latencies bucketed by the sample they fall in.
  let probe = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const t0 = performance.now();
      await fetch(`${dev.url}/assistant?limit=10`, { headers: H }).then((r) => r.arrayBuffer());
      probe.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();

  const sample = async () => {
    const health = await (await fetch(`${dev.url}/__voice/health`)).json();
    const s = {
      at: Math.round((Date.now() - Date.parse(report.started)) / 100) / 10,
      finished,
      rssMiB: Math.round((health.process?.rssBytes ?? 0) / 1048576),
      heapMiB: Math.round((health.process?.heapUsedBytes ?? 0) / 1048576),
      loopP99Ms: health.process?.eventLoopDelayMs?.p99 ?? null,
      restP99Ms: Math.round(quantile(probe, 0.99) * 10) / 10,
      restRequests: probe.length,
      dataFileKiB: Math.round(statSync(dataFile).size / 1024),
      emulatorCpuS: cpuSeconds(dev.child.pid),
      loadAverage: Math.round(loadavg()[0] * 100) / 100,
    };
    probe = [];
    report.samples.push(s);
    process.stderr.write(
      `${s.at}s calls ${s.finished}/${TOTAL} rss ${s.rssMiB} MiB heap ${s.heapMiB} MiB loop p99 ${s.loopP99Ms} ms REST p99 ${s.restP99Ms} ms data ${s.dataFileKiB} KiB cpu ${s.emulatorCpuS} s load ${s.loadAverage}\n`,
    );
  };
  await fetch(`${dev.url}/__voice/health`);
  const sampler = setInterval(() => void sample().catch(() => undefined), 5000);

  // Keep CONCURRENCY calls in flight until TOTAL have been placed.
  const place = async () => {
    while (placed < TOTAL && Date.now() < DEADLINE) {
      if (placed - finished >= CONCURRENCY) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      placed++;
      const res = await fetch(`${dev.url}/call`, { method: 'POST', headers: H, body: JSON.stringify({ assistantId: assistant.id, customer: { number: '+14155550123' } }) });
      if (res.status !== 201) failedPlacements++;
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: PLACERS }, place));
  while (finished < placed - failedPlacements && Date.now() < DEADLINE) await new Promise((r) => setTimeout(r, 50));
  clearInterval(sampler);
  await sample();
  probing = false;
  await prober;
} finally {
  await browser?.close();
  // Stopped before its data file's folder goes: it writes what it still holds on the way out.
  const exited = new Promise((ok) => (dev.child.exitCode !== null ? ok() : dev.child.once('exit', ok)));
  dev.child.kill('SIGINT');
  await exited;
  hook.close();
}

// The verdicts.
const s = report.samples;
const checks = soakChecks(s, { finished, total: TOTAL, failedPlacements });
report.ended = new Date().toISOString();
report.checks = checks;
const seconds = (Date.parse(report.ended) - Date.parse(report.started)) / 1000;
const cpu = s.at(-1)?.emulatorCpuS;
report.figures = {
  calls: finished,
  minutes: Math.round(seconds / 6) / 10,
  callsPerSecond: Math.round((finished / seconds) * 10) / 10,
  emulatorCpuMsPerCall: cpu && finished ? Math.round((cpu * 1000) / finished) : null,
  loadAverageMedian: quantile(
    s.map((x) => x.loadAverage),
    0.5,
  ),
};
mkdirSync(args.out, { recursive: true });
const samplesFile = join(root, 'bench', 'results', 'soak.json');
mkdirSync(dirname(samplesFile), { recursive: true });
writeFileSync(samplesFile, `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(args.out, 'latest.svg'), chart(s));
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify(report.figures)}\n`);
for (const c of checks) process.stdout.write(`${c.ok ? 'PASS' : 'FAIL'}  ${c.what}: ${c.figure}\n`);
process.stdout.write(`Wrote ${join(args.out, 'latest.svg')} and ${samplesFile}\n`);
process.exit(checks.every((c) => c.ok) ? 0 : 1);

/** Three small line charts over time (RSS, REST p99, data file), as one SVG for the README. */
function chart(samples) {
  const W = 720;
  const rowH = 120;
  const series = [
    ['rssMiB', 'RSS (MiB)', '#2563eb'],
    ['restP99Ms', 'REST p99 (ms)', '#dc2626'],
    ['dataFileKiB', 'data file (KiB)', '#059669'],
  ];
  const t = samples.map((x) => x.at);
  const tMax = Math.max(...t, 1);
  const parts = series.map(([k, label, colour], i) => {
    const ys = samples.map((x) => x[k] ?? 0);
    const yMax = Math.max(...ys, 1);
    const top = i * rowH + 20;
    const pts = samples.map((x, j) => `${(50 + ((W - 70) * t[j]) / tMax).toFixed(1)},${(top + 80 - (80 * ys[j]) / yMax).toFixed(1)}`).join(' ');
    return `<text x="50" y="${top - 5}" font-size="12">${label}, max ${yMax}</text><line x1="50" y1="${top + 80}" x2="${W - 20}" y2="${top + 80}" stroke="#999"/><polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${pts}"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${series.length * rowH + 20}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${parts.join('')}<text x="50" y="${series.length * rowH + 12}" font-size="11">seconds 0 to ${tMax}; ${samples.at(-1)?.finished ?? 0} calls</text></svg>\n`;
}
