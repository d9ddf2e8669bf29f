// Time from launching a dev server to its page and whole initial module graph served, fetched the
// way a browser would: the HTML, then every module script and its static imports, six at a time.
import { spawn } from 'node:child_process';
import type { Command } from './proc.js';
import { htmlAssets, staticImports, walkGraph } from './modgraph.js';
import { waitForOk } from './net.js';

/** What one launch measured. */
export interface LaunchResult {
  /** Launch to the last module of the initial graph received. */
  ms: number;
  /** Launch to the HTML received. */
  htmlMs: number;
  modules: number;
  /** Times the graph was re-fetched because Vite answered 504 (outdated optimized deps), as a browser reload would. */
  reloads: number;
}

class Outdated extends Error {}

async function fetchModule(url: string): Promise<string> {
  const response = await fetch(url, { headers: { accept: '*/*', 'sec-fetch-dest': 'script' }, signal: AbortSignal.timeout(60_000) });
  const body = await response.text();
  if (response.status === 504) throw new Outdated(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return body;
}

async function fetchStyle(url: string): Promise<void> {
  const response = await fetch(url, { headers: { accept: 'text/css,*/*;q=0.1', 'sec-fetch-dest': 'style' }, signal: AbortSignal.timeout(60_000) });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
}

/** Fetches the initial module graph of a page whose HTML is already in hand; returns the module count. */
async function crawl(pageUrl: string, html: string): Promise<number> {
  const assets = htmlAssets(html, pageUrl);
  const inlineRoots = assets.inline.flatMap((code) => staticImports(code).map((spec) => new URL(spec, pageUrl).href));
  const roots = [...new Set([...assets.scripts, ...assets.preloads, ...inlineRoots])];
  const [modules] = await Promise.all([walkGraph(roots, fetchModule), Promise.all(assets.styles.map(fetchStyle))]);
  return modules.length;
}

const HTML_HEADERS = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'sec-fetch-dest': 'document' };

/**
 * Launches the server command, waits for `pageUrl` to answer, fetches the initial module graph,
 * and stops the server (SIGINT, then SIGKILL after 5 s); bounded by `timeoutMs`.
 */
export async function launchToGraph(command: Command, pageUrl: string, timeoutMs = 60_000): Promise<LaunchResult> {
  const [file, ...args] = command.argv;
  const start = performance.now();
  const child = spawn(file as string, args, { cwd: command.cwd, env: { ...process.env, ...command.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 20_000) stderr += d;
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const died = exited.then(() => {
    throw new Error(`\`${command.argv.join(' ')}\` exited ${exitCode} before serving: ${stderr.trim().split('\n').slice(-4).join(' / ')}`);
  });
  died.catch(() => undefined);
  try {
    const work = (async (): Promise<LaunchResult> => {
      let html = await waitForOk(pageUrl, timeoutMs, 5, HTML_HEADERS);
      const htmlMs = performance.now() - start;
      for (let reloads = 0; reloads < 3; reloads++) {
        try {
          const modules = await crawl(pageUrl, html);
          return { ms: performance.now() - start, htmlMs, modules, reloads };
        } catch (error) {
          if (!(error instanceof Outdated)) throw error;
          html = await waitForOk(pageUrl, timeoutMs, 5, HTML_HEADERS);
        }
      }
      throw new Error(`${pageUrl}: the module graph was still outdated after 3 reloads`);
    })();
    return await Promise.race([work, died]);
  } finally {
    if (exitCode === undefined) {
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
  }
}
