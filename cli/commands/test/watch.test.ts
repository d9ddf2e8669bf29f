// The watch loop driven by file events and a fake clock (no sleeps): an edited prompt re-runs
// exactly the tests of that assistant; a burst of writes is one run; a change nothing depends on
// and a file with a problem run nothing; the screen keeps the last result of every test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lintFolder } from '#core/evals/index';
import type { TestFolder, TestReport } from '#core/evals/index';
import { isResourceFile, TestWatcher } from './watch.js';

let dir: string;
const write = (file: string, text: string): void => {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
};
const evalFile = (target: string, word: string): string =>
  `name: ${word}\ntype: chat.mockConversation\nmessages:\n  - role: user\n    content: ${word}?\n  - role: assistant\n    judgePlan:\n      type: exact\n      content: ${word}\nx-voice:\n  target: ${target}\n`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voice-watch-'));
  write('assistants/front.md', '---\nname: Front\nmodel:\n  provider: openai\n  model: gpt-4o\n---\n\nYou answer the phone.\n');
  write('assistants/billing.yml', 'name: Billing\nmodel:\n  provider: openai\n  model: gpt-4o\n  toolIds:\n    - invoices\n');
  write('tools/invoices.yml', 'type: function\nfunction:\n  name: invoices\n');
  write('evals/front-greets.yml', evalFile('front', 'hello'));
  write('evals/front-hours.yml', evalFile('front', 'hours'));
  write('evals/billing-invoice.yml', evalFile('billing', 'invoice'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A watcher over a fake event source and clock, whose runs pass unless told to fail. */
function harness(failing = new Set<string>()) {
  let emit: (file: string) => void = () => undefined;
  const timers: (() => void)[] = [];
  const shown: string[] = [];
  const watcher = new TestWatcher({
    subscribe: (onChange) => {
      emit = onChange;
      return () => undefined;
    },
    setTimer: (fn) => timers.push(fn),
    clearTimer: (h) => void (timers[(h as number) - 1] = () => undefined),
    readFolder: () => lintFolder(dir),
    run: (folder: TestFolder, keys: ReadonlySet<string>): Promise<TestReport> =>
      Promise.resolve({
        target: { type: 'assistant', id: 'a', label: 'front' },
        simulations: [],
        evals: [...keys].map((k) => ({
          id: k.slice(6),
          file: `${k}.yml`,
          name: k,
          passed: !failing.has(k),
          verdict: failing.has(k) ? 'fail' : 'pass',
          ms: 1,
          ...(failing.has(k) ? { reason: 'said no' } : {}),
        })),
        ok: true,
        ms: 1,
      }),
    show: (screen) => shown.push(screen),
    fallback: () => undefined,
    keep: (folder) => new Set(folder.resources.filter((r) => r.kind.name === 'evals').map((r) => `evals/${r.id}`)),
  });
  /** Fires the debounce timer that is due (the fake clock moves on). */
  const tick = async (): Promise<void> => {
    timers.splice(0).forEach((t) => t());
    await watcher.idle();
  };
  return { watcher, emit: (f: string) => emit(f), tick, shown, pending: () => timers.length };
}

describe('voice test --watch', () => {
  it("re-runs exactly the tests of the assistant whose prompt changed, once for a burst of writes, and shows every test's last result", async () => {
    const failing = new Set<string>();
    const h = harness(failing);
    await h.watcher.start();
    expect(h.watcher.runs).toEqual([['evals/billing-invoice', 'evals/front-greets', 'evals/front-hours']]);

    failing.add('evals/front-hours');
    write('assistants/front.md', '---\nname: Front\nmodel:\n  provider: openai\n  model: gpt-4o\n---\n\nYou answer the phone. Be brief.\n');
    h.emit('assistants/front.md');
    h.emit('assistants/front.md');
    expect(h.watcher.runs).toHaveLength(1);
    await h.tick();
    expect(h.watcher.runs).toEqual([
      ['evals/billing-invoice', 'evals/front-greets', 'evals/front-hours'],
      ['evals/front-greets', 'evals/front-hours'],
    ]);
    const screen = h.shown.at(-1) as string;
    expect(screen).toMatch(/\* evals\/front-hours\s+fail\s+said no/);
    expect(screen).toMatch(/ {2}evals\/billing-invoice\s+pass/);
    expect(screen).toContain('assistants/front.md changed: re-ran 2 case(s)');

    // A tool re-runs the tests of the assistant that uses it; a test file, that test.
    h.emit('tools/invoices.yml');
    await h.tick();
    h.emit('evals/front-greets.yml');
    await h.tick();
    expect(h.watcher.runs.slice(2)).toEqual([['evals/billing-invoice'], ['evals/front-greets']]);
  });

  it('runs nothing for a file no test depends on, for dot files, or while a file has a problem', async () => {
    const h = harness();
    await h.watcher.start();
    write('assistants/spare.yml', 'name: Spare\nmodel:\n  provider: openai\n  model: gpt-4o\n');
    h.emit('assistants/spare.yml');
    await h.tick();
    expect(h.shown.at(-1)).toContain('assistants/spare.yml changed: no test depends on it.');
    h.emit('.voice-times.json');
    expect(h.pending()).toBe(0);
    write('evals/front-hours.yml', 'name: [unclosed\n');
    h.emit('evals/front-hours.yml');
    await h.tick();
    expect(h.shown.at(-1)).toMatch(/1 problem\(s\) after evals\/front-hours\.yml; nothing re-ran/);
    expect(h.watcher.runs).toHaveLength(1);
    expect(isResourceFile('assistants/front.md')).toBe(true);
    expect(isResourceFile('evals/.#front.yml')).toBe(false);
  });
});
