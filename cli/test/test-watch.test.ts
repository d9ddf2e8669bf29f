// `voice test --watch` through the built CLI: it runs every case, then an edited prompt re-runs the
// tests of that assistant only, with the last result of every test on screen. The test waits for
// what the watcher prints, never for a fixed time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { ROOT } from './build.js';
import { fileHarness } from './harness.js';

const hf = fileHarness();
let model: FakeModel;
beforeAll(async () => {
  model = await startFakeModel(() => ({ text: 'ok' }));
});
afterAll(async () => {
  await model?.close();
});

it('re-runs exactly the tests of the assistant whose prompt was edited', async () => {
  const dir = join(hf.current.home, 'watched');
  for (const f of ['assistants', 'evals']) mkdirSync(join(dir, f), { recursive: true });
  const assistant = (name: string, prompt: string): string => `---\nname: ${name}\nmodel:\n  provider: openai\n  model: gpt-4o\n---\n\n${prompt}\n`;
  writeFileSync(join(dir, 'assistants/front.md'), assistant('Front', 'You answer the phone.'));
  writeFileSync(join(dir, 'assistants/billing.md'), assistant('Billing', 'You explain invoices.'));
  for (const [id, target] of [
    ['front-greets', 'front'],
    ['front-hours', 'front'],
    ['billing-invoice', 'billing'],
  ])
    writeFileSync(
      join(dir, `evals/${id}.yml`),
      `name: ${id}\ntype: chat.mockConversation\nmessages:\n  - role: user\n    content: ${id}?\n  - role: assistant\n    judgePlan:\n      type: exact\n      content: ok\nx-voice:\n  target: ${target}\n`,
    );
  const proc = execa(process.execPath, [join(ROOT, 'bin/voice.js'), 'test', dir, '--watch', '--llm', model.url], { env: hf.current.env, extendEnv: false, reject: false, cwd: hf.current.home });
  let stdout = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  proc.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
    for (const w of waiters.filter((x) => stdout.includes(x.text))) w.resolve();
  });
  const printed = (text: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (stdout.includes(text)) return resolve();
      waiters.push({ text, resolve });
      void proc.then((r) => reject(new Error(`voice test --watch ended (${String(r.exitCode)}) before printing "${text}":\n${stdout}\n${String(r.stderr)}`)));
    });
  try {
    await printed('ran 3 case(s). Watching for changes');
    const asked = model.requests.length;
    writeFileSync(join(dir, 'assistants/billing.md'), assistant('Billing', 'You explain invoices, briefly.'));
    await printed('assistants/billing.md changed: re-ran 1 case(s)');
    // The last screen: every test's last result, the one just re-run marked.
    const screens = stdout.split('Watching for changes (Ctrl-C to stop).');
    const screen = screens[screens.length - 2] ?? '';
    expect(screen).toMatch(/^\* evals\/billing-invoice\s+pass$/m);
    expect(screen).toMatch(/^ {2}evals\/front-greets\s+pass$/m);
    expect(screen).toMatch(/^ {2}evals\/front-hours\s+pass$/m);
    // One eval ran again: one request to the model, with the new prompt.
    expect(model.requests.slice(asked).map((r) => JSON.stringify(r.body.messages))).toEqual([expect.stringContaining('You explain invoices, briefly.')]);
  } finally {
    proc.kill('SIGINT');
    await proc;
  }
}, 120_000);
