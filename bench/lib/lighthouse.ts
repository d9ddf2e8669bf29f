// Lighthouse (npm `lighthouse` 12, default mobile config: emulated phone, simulated slow 4G and
// CPU slowdown) against Debian's Chromium, launched here with a fresh profile per run and with
// every host name except 127.0.0.1 unresolvable, so nothing can reach the internet.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'puppeteer-core';

/** The Chromium the bench drives (never a downloaded browser). */
export const CHROMIUM = process.env.VOICE_BENCH_CHROMIUM ?? '/usr/bin/chromium';

/** The figures of one Lighthouse run. */
export interface LighthouseRun {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  /** Requested URLs not on 127.0.0.1 (should be none). */
  offLoopback: string[];
}

/** The bench's Chromium flags: no sandbox (root), no GPU, no traffic of its own (updates, sync, QUIC). */
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

const FLAGS = [
  '--headless=new',
  ...CHROMIUM_FLAGS,
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--no-default-browser-check',
  '--metrics-recording-only',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  '--remote-debugging-address=127.0.0.1',
  '--remote-debugging-port=0',
];

// Process groups of running Chromiums, killed if the bench exits early (e.g. Ctrl-C).
const live = new Set<number>();
process.on('exit', () => {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** Launches Chromium and resolves with its DevTools port and a way to stop it. */
async function launchChromium(tmp: string): Promise<{ port: number; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmp, 'chromium-'));
  // Its own process group, so its helper processes (renderers, crashpad) are stopped with it.
  const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  if (child.pid) live.add(child.pid);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      if (child.pid) live.delete(child.pid);
      resolve();
    }),
  );
  const signal = (name: NodeJS.Signals): void => {
    try {
      if (child.pid) process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  };
  const close = async (): Promise<void> => {
    signal('SIGTERM');
    const killer = setTimeout(() => signal('SIGKILL'), 3000);
    await exited;
    clearTimeout(killer);
    // A helper may still be flushing into the profile; the run's scratch directory goes at the end anyway.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch {
      // Left for the final clean-up of the scratch directory.
    }
  };
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Chromium did not open DevTools within 20 s')), 20_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error('Chromium exited before DevTools was ready'));
    });
    createInterface({ input: child.stderr }).on('line', (line) => {
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { port, close };
}

interface Audit {
  numericValue?: number;
  details?: { items?: { url?: string }[] };
}

/** Runs Lighthouse's performance category once on a URL in a fresh Chromium. */
export async function lighthouseOnce(url: string, tmp: string): Promise<LighthouseRun> {
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await launchChromium(tmp);
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const audit = (id: string): Audit => (lhr.audits[id] ?? {}) as Audit;
    const value = (id: string): number => audit(id).numericValue ?? Number.NaN;
    const score = lhr.categories.performance?.score;
    const requests = audit('network-requests').details?.items ?? [];
    return {
      score: typeof score === 'number' ? Math.round(score * 100) : Number.NaN,
      fcp: value('first-contentful-paint'),
      lcp: value('largest-contentful-paint'),
      tbt: value('total-blocking-time'),
      offLoopback: requests.map((r) => r.url ?? '').filter((u) => !/^(https?:\/\/127\.0\.0\.1[:/]|data:|blob:)/.test(u)),
    };
  } finally {
    await chrome.close();
  }
}

/** The accessibility score of a page and the audits that failed. */
export interface AccessibilityRun {
  score: number;
  failed: string[];
}

/** Runs Lighthouse's accessibility category once on a URL in a fresh Chromium. */
export async function lighthouseAccessibility(url: string, tmp: string): Promise<AccessibilityRun> {
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await launchChromium(tmp);
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['accessibility'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const score = lhr.categories.accessibility?.score;
    const failed = Object.values(lhr.audits)
      .filter((a) => a.score === 0)
      .map((a) => a.id);
    return { score: typeof score === 'number' ? Math.round(score * 100) : Number.NaN, failed };
  } finally {
    await chrome.close();
  }
}

/** Scores of a page opened, then changed by a visitor's action: each step's Lighthouse verdict. */
export interface FlowRun {
  /** Navigation: performance and accessibility of the page as it loads. */
  loaded: { performance: number; accessibility: number; failed: string[] };
  /** Timespan of the action (performance: blocking time and layout shifts while it runs). */
  action: { performance: number; tbt: number; cls: number };
  /** Snapshot after the action: accessibility of the page as it now is. */
  after: { accessibility: number; failed: string[] };
}

/**
 * Runs a Lighthouse user flow (mobile, default config) in a fresh Chromium: navigate to `url`,
 * then `act` on the page (a timespan), then a snapshot of the result.
 */
export async function lighthouseFlow(url: string, tmp: string, act: (page: Page) => Promise<void>): Promise<FlowRun> {
  const [{ startFlow }, puppeteer] = await Promise.all([import('lighthouse'), import('puppeteer-core')]);
  const chrome = await launchChromium(tmp);
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  try {
    const page = await browser.newPage();
    const flow = await startFlow(page, { flags: { onlyCategories: ['performance', 'accessibility'] } });
    await flow.navigate(url);
    await flow.startTimespan();
    await act(page);
    await flow.endTimespan();
    await flow.snapshot();
    const steps = (await flow.createFlowResult()).steps.map((s) => s.lhr);
    for (const lhr of steps) if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const score = (lhr: (typeof steps)[number] | undefined, category: string): number => {
      const s = lhr?.categories[category]?.score;
      return typeof s === 'number' ? Math.round(s * 100) : Number.NaN;
    };
    // Only the accessibility category's audits (a performance insight scoring 0 is no accessibility failure).
    const failed = (lhr: (typeof steps)[number] | undefined): string[] => {
      const ids = new Set((lhr?.categories.accessibility?.auditRefs ?? []).map((r) => r.id));
      return Object.values(lhr?.audits ?? {})
        .filter((a) => a.score === 0 && ids.has(a.id))
        .map((a) => a.id);
    };
    const numeric = (lhr: (typeof steps)[number] | undefined, id: string): number => (lhr?.audits[id] as Audit | undefined)?.numericValue ?? Number.NaN;
    const [loaded, action, after] = steps;
    return {
      loaded: { performance: score(loaded, 'performance'), accessibility: score(loaded, 'accessibility'), failed: failed(loaded) },
      action: { performance: score(action, 'performance'), tbt: numeric(action, 'total-blocking-time'), cls: numeric(action, 'cumulative-layout-shift') },
      after: { accessibility: score(after, 'accessibility'), failed: failed(after) },
    };
  } finally {
    await browser.disconnect().catch(() => undefined);
    await chrome.close();
  }
}
