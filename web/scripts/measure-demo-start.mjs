#!/usr/bin/env node
// Measures `voice demo` from launch until the page and its whole initial module graph are served
// (what a browser fetches before first render), warm (optimizer cache present) and cold (empty
// cache of its own). Usage: node web/scripts/measure-demo-start.mjs [runs] [-- command...]
// Default command: node bin/voice.js demo. Prints milliseconds per run and the median.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sep = process.argv.indexOf('--');
const runs = Number(process.argv[2] && process.argv[2] !== '--' ? process.argv[2] : 5);
const command = sep > 0 ? process.argv.slice(sep + 1) : [process.execPath, 'bin/voice.js', 'demo'];

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const IMPORT = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g;

/** Fetches the page, then every module it statically imports, transitively. */
async function crawl(pageUrl) {
  const origin = new URL(pageUrl).origin;
  const html = await (await fetch(pageUrl)).text();
  const seen = new Set();
  const queue = [];
  for (const m of html.matchAll(/<script type="module"(?: src="([^"]+)")?>([\s\S]*?)<\/script>/g)) {
    if (m[1]) queue.push(new URL(m[1], origin).href);
    else for (const i of m[2].matchAll(IMPORT)) queue.push(new URL(i[1], origin).href);
  }
  while (queue.length) {
    const batch = queue.splice(0).filter((u) => !seen.has(u));
    batch.forEach((u) => seen.add(u));
    const bodies = await Promise.all(
      batch.map(async (u) => {
        const res = await fetch(u);
        if (!res.ok) throw new Error(`${u}: ${res.status}`);
        return [u, await res.text()];
      }),
    );
    for (const [u, body] of bodies) for (const i of body.matchAll(IMPORT)) if (!i[1].startsWith('data:')) queue.push(new URL(i[1], u).href);
  }
  return seen.size;
}

async function once(env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0], [...command.slice(1), '--port', String(port), '--slug', 'acme'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errText = '';
  child.stderr.on('data', (d) => (errText += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/\S+/);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${errText}`)));
  });
  const modules = await crawl(url);
  const ms = performance.now() - started;
  child.kill('SIGINT');
  await new Promise((resolve) => child.on('exit', resolve));
  return { ms, modules };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cold = [];
for (let i = 0; i < Math.max(1, Math.ceil(runs / 2)); i++) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'voice-demo-cold-'));
  try {
    cold.push((await once({ VOICE_DEMO_CACHE_DIR: cacheDir })).ms);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
await once({}); // make sure the shared cache is warm
const warm = [];
let modules = 0;
for (let i = 0; i < runs; i++) {
  const r = await once({});
  warm.push(r.ms);
  modules = r.modules;
}
const fmt = (xs) => xs.map((x) => Math.round(x)).join(', ');
console.log(`modules in the initial graph: ${modules}`);
console.log(`warm ms: ${fmt(warm)}  median ${Math.round(median(warm))}`);
console.log(`cold ms: ${fmt(cold)}  median ${Math.round(median(cold))}`);
