// `voice demo` start: launch to the page and its whole initial module graph served, warm (Vite's
// dependency cache present) and cold (cache removed), beside a plain Vite dev server for a bare
// React page measured the same way, launches interleaved.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkCliBuild } from './lib/freshness.js';
import { launchToGraph } from './lib/dev-server.js';
import type { LaunchResult } from './lib/dev-server.js';
import { freePort } from './lib/net.js';
import type { Command } from './lib/proc.js';
import { interleave } from './lib/sample.js';
import { row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'demo-start';
const BARE = 'bench/fixtures/bare-react';
// design.md's budgets, as ratios to plain Vite measured in the same run.
const WARM_RATIO = 0.95;
const COLD_RATIO = 1.1;

/** A dev server to launch: how, where its page is, and where its dependency cache lives. */
interface Subject {
  command: (port: number) => Command;
  path: string;
  /** Removed before a cold launch (each subject's cache is the bench's own). */
  cacheDir: string;
}

function subjects(ctx: BenchContext): Record<string, Subject> {
  const env: NodeJS.ProcessEnv = {
    XDG_CONFIG_HOME: join(ctx.tmp, 'demo-config'),
    VOICE_API_KEY: undefined,
    // A quick smoke run shares the machine with tests that may own 127.0.0.1:4010, where the
    // demo would start (or reuse) its emulator; an API URL that is never called keeps it off.
    VOICE_API_URL: ctx.quick ? 'http://127.0.0.1:9' : undefined,
    VOICE_PROFILE: undefined,
    VOICE_SENTRY_DSN: undefined,
  };
  mkdirSync(env.XDG_CONFIG_HOME as string, { recursive: true });
  // The demo's Vite cache of its own (VOICE_DEMO_CACHE_DIR), so a cold launch never empties the
  // cache a developer's or a test's `voice demo` uses.
  const demoCache = join(ctx.root, 'node_modules', '.cache', 'voice-bench', 'vite-demo');
  const demoEnv: NodeJS.ProcessEnv = { ...env, VOICE_DEMO_CACHE_DIR: demoCache };
  return {
    demo: {
      command: (port) => ({ argv: [process.execPath, 'bin/voice.js', 'demo', '--slug', 'acme', '--port', String(port)], cwd: ctx.root, env: demoEnv }),
      path: '/acme',
      // Only the optimized-dependency part is removed for a cold launch.
      cacheDir: join(demoCache, 'deps'),
    },
    'bare vite': {
      command: (port) => ({
        argv: [process.execPath, 'node_modules/vite/bin/vite.js', BARE, '--config', `${BARE}/vite.config.ts`, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
        cwd: ctx.root,
        env,
      }),
      path: '/',
      cacheDir: join(ctx.root, 'node_modules', '.cache', 'voice-bench', 'vite-bare-react', 'deps'),
    },
  };
}

const benchmark: Benchmark = {
  name: bench,
  title: 'launch to page + initial module graph served (browser-like fetch), warm and cold, beside plain Vite',
  async run(ctx): Promise<Row[]> {
    const stale = checkCliBuild(ctx.root);
    if (stale) ctx.log(stale);
    const all = subjects(ctx);
    const facts: Record<string, LaunchResult[]> = {};
    // Warm-up launches and the final cache refill are left out of the facts. A quick run (the smoke
    // test) only proves both launch ways work: no warm-up, no refill.
    let recording = ctx.quick;
    const launch = (name: string, cold: boolean) => async (): Promise<number> => {
      const subject = all[name] as Subject;
      if (cold) rmSync(subject.cacheDir, { recursive: true, force: true });
      const port = await freePort();
      const result = await launchToGraph(subject.command(port), `http://127.0.0.1:${port}${subject.path}`);
      if (recording) (facts[`${name}${cold ? ' cold' : ''}`] ??= []).push(result);
      return result.ms;
    };
    const names = Object.keys(all);
    // Warm first (the warm-up launch fills each cache), then cold, each interleaved.
    const warm = await interleave(Object.fromEntries(names.map((n) => [n, launch(n, false)])), {
      warmup: ctx.quick ? 0 : 1,
      rounds: ctx.quick ? 1 : 7,
      perRound: ctx.quick ? 1 : 3,
      onRound: () => {
        recording = true;
      }, // after the warm-up round
    });
    // As many cold rounds as warm: a cold launch (dependency optimisation by rolldown on two cores)
    // swings more than a warm one.
    const cold = await interleave(Object.fromEntries(names.map((n) => [n, launch(n, true)])), { warmup: 0, rounds: ctx.quick ? 1 : 7, perRound: ctx.quick ? 1 : 3 });
    // Leave warm caches behind for whoever runs next.
    recording = false;
    if (!ctx.quick) await interleave(Object.fromEntries(names.map((n) => [n, launch(n, false)])), { warmup: 0, rounds: 1 });
    const describe = (key: string): string => {
      const runs = facts[key] ?? [];
      const reloads = runs.reduce((sum, r) => sum + r.reloads, 0);
      return `${key}: ${runs[0]?.modules ?? 0} modules, HTML at ${Math.round(runs.map((r) => r.htmlMs).sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? 0)} ms (median)${reloads ? `, ${reloads} reloads` : ''}`;
    };
    const note = [describe('demo'), describe('bare vite'), stale].filter(Boolean).join('; ');
    return [
      row({
        bench,
        metric: '`voice demo` warm: launch to page + module graph',
        unit: 'ms',
        figure: warm.demo as number[],
        reference: { label: 'plain Vite, bare React', figure: warm['bare vite'] as number[] },
        budget: { op: '<=', limit: WARM_RATIO, on: 'ratio' },
        note,
      }),
      row({
        bench,
        metric: '`voice demo` cold (no Vite dep cache): launch to page + module graph',
        unit: 'ms',
        figure: cold.demo as number[],
        reference: { label: 'plain Vite, bare React', figure: cold['bare vite'] as number[] },
        budget: { op: '<=', limit: COLD_RATIO, on: 'ratio' },
        note: [describe('demo cold'), describe('bare vite cold')].join('; '),
      }),
    ];
  },
};

export default benchmark;
