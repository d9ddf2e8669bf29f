// `voice test --watch`: runs the cases once, then re-runs exactly the ones each change touches (an
// edited prompt: the tests of that assistant and its squads; a scenario: its simulations; a test
// file: that test), with the last result of every case on screen. The watcher takes its file events
// and its clock from outside, so a test drives it with events, not sleeps.
import { watch } from 'node:fs';
import { affectedCases, casesOf, lintFolder } from '#core/evals/index';
import type { TargetFile, TestFolder, TestReport } from '#core/evals/index';
import { showProblem } from '#core/gitops/index';
import type { Context } from '../../context.js';
import { dim, green, red, yellow } from '../../output/style.js';
import { err, out } from '../../redact.js';
import { chooseTarget } from './platform.js';
import type { TestOptions } from './platform.js';
import { openPlatform, runOn, selectCases } from './run.js';

/** What the watcher needs from the world. */
export interface WatchDeps {
  /** Calls `onChange` with each changed file (relative to the folder, `/` separated); returns a stop function. */
  subscribe(onChange: (file: string) => void): () => void;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** Reads and checks the folder. */
  readFolder(): TestFolder;
  /** Runs these cases (keys) of this folder. */
  run(folder: TestFolder, keys: ReadonlySet<string>): Promise<TestReport>;
  /** Shows the screen (all of it, each time). */
  show(screen: string): void;
  /** The default target as a file of the folder, when one can be chosen. */
  fallback(folder: TestFolder): TargetFile | undefined;
  /** Keeps a case (the --filter and --shard the watch started with). */
  keep(folder: TestFolder): Set<string>;
}

/** The last result of a case. */
interface Last {
  verdict: 'pass' | 'fail' | 'flaky';
  reason?: string;
  round: number;
}

/** Files that can change a test: the resource files, not dot files or editors' leftovers. */
export function isResourceFile(file: string): boolean {
  return /\.(ya?ml|json|md)$/.test(file) && !file.split('/').some((part) => part.startsWith('.'));
}

/** The watch loop over injected events and clock. */
export class TestWatcher {
  readonly last = new Map<string, Last>();
  /** Every run, in order, with the keys it ran (for tests and the screen). */
  readonly runs: string[][] = [];
  private folder: TestFolder;
  private changed = new Set<string>();
  private timer: unknown;
  private busy: Promise<void> = Promise.resolve();
  private stop?: () => void;

  constructor(
    private readonly deps: WatchDeps,
    private readonly debounceMs = 150,
  ) {
    this.folder = deps.readFolder();
  }

  /** Runs every kept case, then follows changes. */
  start(): Promise<void> {
    this.stop = this.deps.subscribe((file) => this.onChange(file));
    return this.schedule(this.deps.keep(this.folder), []);
  }

  /** Resolves when the runs asked for so far have finished. */
  idle(): Promise<void> {
    return this.busy;
  }

  close(): void {
    this.stop?.();
    if (this.timer !== undefined) this.deps.clearTimer(this.timer);
  }

  private onChange(file: string): void {
    if (!isResourceFile(file)) return;
    this.changed.add(file);
    if (this.timer !== undefined) this.deps.clearTimer(this.timer);
    // Editors write a file in several steps: one run for the burst.
    this.timer = this.deps.setTimer(() => {
      this.timer = undefined;
      const files = [...this.changed];
      this.changed.clear();
      void this.afterChange(files);
    }, this.debounceMs);
  }

  private afterChange(files: string[]): Promise<void> {
    const previous = this.folder;
    const folder = this.deps.readFolder();
    if (folder.problems.length) {
      this.deps.show(
        `${this.screen([])}\n${red(`${folder.problems.length} problem(s) after ${files.join(', ')}; nothing re-ran:`)}\n${folder.problems.map((p) => `  ${showProblem(p)}`).join('\n')}\n`,
      );
      return this.busy;
    }
    this.folder = folder;
    const keep = this.deps.keep(folder);
    const touched = [...affectedCases(folder, new Set(files), this.deps.fallback(folder), previous)].filter((k) => keep.has(k));
    for (const key of [...this.last.keys()]) if (!keep.has(key)) this.last.delete(key);
    if (!touched.length) {
      this.deps.show(`${this.screen([])}\n${dim(`${files.join(', ')} changed: no test depends on ${files.length === 1 ? 'it' : 'them'}.`)}\n`);
      return this.busy;
    }
    return this.schedule(new Set(touched), files);
  }

  private schedule(keys: ReadonlySet<string>, files: string[]): Promise<void> {
    const folder = this.folder;
    this.busy = this.busy.then(async () => {
      const round = this.runs.push([...keys].sort());
      try {
        const report = await this.deps.run(folder, keys);
        for (const s of report.simulations)
          this.last.set(`simulations/${s.id}`, {
            verdict: s.verdict,
            ...(s.iterations.find((i) => !i.passed)?.reason ? { reason: s.iterations.find((i) => !i.passed)?.reason as string } : {}),
            round,
          });
        for (const e of report.evals) this.last.set(`evals/${e.id}`, { verdict: e.verdict, ...(e.reason ? { reason: e.reason } : {}), round });
        const what = files.length ? `${files.join(', ')} changed: re-ran ${keys.size} case(s)` : `ran ${keys.size} case(s)`;
        this.deps.show(`${this.screen([...keys])}\n${dim(`${what}. Watching for changes (Ctrl-C to stop).`)}\n`);
      } catch (e) {
        this.deps.show(`${this.screen([])}\n${red(`The run failed: ${(e as Error).message}`)}\n`);
      }
    });
    return this.busy;
  }

  /** The last result of every case, the ones just run marked. */
  screen(justRan: readonly string[]): string {
    const rows = [...this.last.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    const mark = (v: Last['verdict']): string => (v === 'pass' ? green('pass') : v === 'flaky' ? yellow('flaky') : red('fail'));
    const width = Math.max(4, ...rows.map(([k]) => k.length));
    const lines = rows.map(([key, l]) => `${justRan.includes(key) ? '*' : ' '} ${key.padEnd(width)}  ${mark(l.verdict)}${l.reason ? dim(`  ${(l.reason.split('\n')[0] ?? '').slice(0, 120)}`) : ''}`);
    return `${lines.join('\n')}\n`;
  }
}

/** Runs `voice test --watch` until Ctrl-C. */
export async function watchTests(ctx: Context, dir: string, opts: TestOptions): Promise<void> {
  const platform = await openPlatform(ctx, dir, opts);
  const tty = process.stdout.isTTY;
  const watcher = new TestWatcher({
    subscribe: (onChange) => {
      const w = watch(dir, { recursive: true }, (_event, name) => name && onChange(String(name).split('\\').join('/')));
      return () => w.close();
    },
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
    readFolder: () => lintFolder(dir),
    run: async (folder, keys) => {
      await platform.reapply?.();
      return runOn(
        ctx,
        dir,
        folder,
        platform,
        casesOf(folder).filter((c) => keys.has(c.key)),
        opts,
        false,
      );
    },
    show: (screen) => out(`${tty ? '\x1b[2J\x1b[H' : ''}${screen}`),
    fallback: (folder) => {
      try {
        const t = chooseTarget(folder, opts.target);
        return t.id ? { kind: t.type === 'squad' ? 'squads' : 'assistants', id: t.id } : undefined;
      } catch {
        return undefined;
      }
    },
    keep: (folder) => new Set(selectCases(folder, dir, opts).cases.map((c) => c.key)),
  });
  err(dim(`Watching ${dir}: the cases each change touches run again.\n`));
  await watcher.start();
  await new Promise<void>((resolve) => {
    const done = (): void => {
      watcher.close();
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await watcher.idle();
  await platform.close();
}
