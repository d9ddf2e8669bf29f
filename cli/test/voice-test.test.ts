// `voice test` through the built CLI on the starter folder, with a fake model the test scripts for
// the tester, the target, the extractor and the judge: a passing run, a flaky one (exit 1), JUnit
// checked by xmllint against Jenkins' schema, no model (exit 1 and how to configure one), lint traps.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel, FakeReply, FakeRequest } from '#core/model/testing';
import { byRole, systemOf, testerTurn, transcriptIn } from '#core/evals/roles.test-support';
import { ROOT } from './build.js';
import { fileHarness, json } from './harness.js';
import { plain, voiceTty } from './tty.js';

const hf = fileHarness();
const XSD = join(ROOT, 'fixtures/junit/jenkins-junit.xsd');

/** How many times the impatient caller's booking is extracted as booked before it turns to moved. */
let bookedFirst = Infinity;
let extractions = 0;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel(
    byRole({
      tester: (req: FakeRequest): FakeReply => {
        if (testerTurn(req) > 0) return { toolCalls: [{ name: 'endCall' }] };
        return { text: systemOf(req).includes('Friday') ? 'Please move my Monday check-up to Friday.' : 'Check-up next Tuesday after 2 pm, quickly.' };
      },
      target: (req: FakeRequest): FakeReply => {
        const last = (req.body.messages as { content?: unknown }[]).at(-1);
        return { text: last?.content === 'Hello?' ? 'Riverside Clinic, how can I help?' : 'All done for you.' };
      },
      extractor: (req: FakeRequest): FakeReply => {
        if (transcriptIn(req).includes('Friday')) return { text: '{"outcome":"moved","appointmentDay":"Friday"}' };
        return { text: JSON.stringify({ outcome: extractions++ < bookedFirst ? 'booked' : 'moved' }) };
      },
      judge: (): FakeReply => ({ text: 'pass' }),
    }),
  );
});

afterAll(async () => {
  await model?.close();
});

function starter(name: string): string {
  const dir = join(hf.current.home, name);
  cpSync(join(ROOT, 'fixtures/gitops/starter'), dir, { recursive: true });
  return dir;
}

async function xmllint(file: string): Promise<{ exitCode: number; stderr: string }> {
  const r = await execa('xmllint', ['--noout', '--schema', XSD, file], { reject: false });
  return { exitCode: r.exitCode ?? -1, stderr: String(r.stderr) };
}

describe('voice test', () => {
  it('runs the starter folder on the model: every simulation and the eval pass, exit 0, JUnit valid', async () => {
    const dir = starter('pass');
    const junit = join(hf.current.home, 'pass.xml');
    const run = await hf.current.voice(['test', dir, '--llm', model.url, '--junit', junit], { timeout: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Impatient caller books a check-up\s+Booking\s+1\/1\s+100%\s+pass/);
    expect(run.stdout).toMatch(/Polite caller moves an appointment\s+Booking\s+1\/1\s+100%\s+pass/);
    expect(run.stdout).toMatch(/Greets with the clinic's name\s+pass/);
    expect(run.stderr).toContain('PASS 2 of 2 simulation(s) passed; 1 of 1 eval(s) passed against squad front-office');
    expect(await xmllint(junit)).toMatchObject({ exitCode: 0 });
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).not.toContain('<failure');
  });

  it('passes 3 of 5 iterations: flaky, exit 1, each failed iteration a JUnit failure with its message', async () => {
    const dir = starter('flaky');
    const junit = join(hf.current.home, 'flaky.xml');
    extractions = 0;
    bookedFirst = 3;
    try {
      const run = await hf.current.voice(['test', dir, '--llm', model.url, '--iterations', '5', '--concurrency', '1', '--filter', 'impatient', '--junit', junit, '--json'], { timeout: 60_000 });
      expect(run.exitCode, run.stderr).toBe(1);
      const report = json<{ ok: boolean; simulations: { id: string; passed: number; passRate: number; verdict: string; iterations: { passed: boolean }[] }[]; evals: unknown[] }>(run);
      expect(report.ok).toBe(false);
      expect(report.evals).toEqual([]);
      expect(report.simulations).toMatchObject([{ id: 'impatient-books-checkup', passed: 3, passRate: 0.6, verdict: 'flaky' }]);
      expect(report.simulations[0]?.iterations).toHaveLength(5);
      expect(run.stderr).toContain('0 of 1 simulation(s) passed, 1 flaky');
      expect(await xmllint(junit)).toMatchObject({ exitCode: 0 });
      const xml = readFileSync(junit, 'utf8');
      expect(xml.match(/<testcase /g)).toHaveLength(5);
      expect(xml.match(/<failure /g)).toHaveLength(2);
      expect(xml).toContain('Flaky: passed 3 of 5. Call outcome.outcome: expected = &quot;booked&quot;, extracted &quot;moved&quot;');
    } finally {
      bookedFirst = Infinity;
    }
  });

  it('on a terminal: a live line per finished iteration and eval, then the table', async () => {
    const run = await voiceTty(hf.current.env, ['test', starter('tty'), '--llm', model.url, '--iterations', '2']);
    const text = plain(run.stdout);
    expect(run.exitCode, text).toBe(0);
    expect(text).toContain('Running');
    expect(text).toMatch(/✓ Impatient caller books a check-up #1\/2 passed/);
    expect(text).toMatch(/✓ Impatient caller books a check-up #2\/2 passed/);
    expect(text).toMatch(/✓ eval Greets with the clinic's name/);
    expect(text.indexOf('#2/2 passed')).toBeLessThan(text.indexOf('SIMULATION'));
  });

  it('without a model: every run fails with the reason, exit 1, and it says how to configure one', async () => {
    const dir = starter('nomodel');
    const run = await hf.current.voice(['test', dir], { timeout: 60_000 });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/Impatient caller books a check-up\s+Booking\s+0\/1\s+0%\s+fail/);
    expect(run.stdout).toContain('No model is configured, so nothing was run or judged.');
    expect(run.stderr).toContain('voice dev --llm http://127.0.0.1:11434/v1');
    expect(run.stderr).toContain('--llm-replay FILE');
  });

  it('lint: a scenario whose evaluations all need audio and a dangling reference, with file:line, exit 2', async () => {
    const dir = starter('traps');
    mkdirSync(join(dir, 'simulations/tests'), { recursive: true });
    writeFileSync(join(dir, 'structuredOutputs/interruptions.yml'), 'name: Interruptions\ntype: ai\ndescription: Did the assistant interrupt the caller?\nschema:\n  type: boolean\n');
    writeFileSync(
      join(dir, 'simulations/scenarios/talks-over.yml'),
      'name: Talks over\ninstructions: Talk fast.\nevaluations:\n  - structuredOutputId: interruptions\n    comparator: "="\n    value: false\n',
    );
    writeFileSync(join(dir, 'simulations/tests/ghost.yml'), 'name: Ghost\npersonalityId: nobody\nscenarioId: talks-over\n');
    for (const args of [
      ['test', dir, '--lint'],
      ['test', dir, '--llm', model.url],
    ]) {
      const run = await hf.current.voice(args, { timeout: 30_000 });
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(/simulations\/scenarios\/talks-over\.yml:4:\d+: every evaluation needs audio/);
      expect(run.stderr).toMatch(/simulations\/tests\/ghost\.yml:2:\d+: personalityId: unknown reference "nobody"/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("against a running platform (--api-url): the folder must be applied first; then its runs are the platform's", async () => {
    const dir = starter('remote');
    const url = hf.current.emu.url;
    const before = await hf.current.voice(['test', dir, '--api-url', url]);
    expect(before.exitCode).toBe(2);
    expect(before.stderr).toContain('Not on the platform yet: evals/greets-by-clinic-name.yml');
    expect(before.stderr).toContain(`voice apply --dir ${dir}`);
    const applied = await hf.current.voice(['apply', '--dir', dir, '--yes', '--api-url', url]);
    expect(applied.exitCode, applied.stderr).toBe(0);
    // This platform has no model: its runs fail saying so, and voice test reports them.
    const run = await hf.current.voice(['test', dir, '--api-url', url, '--json'], { timeout: 60_000 });
    expect(run.exitCode).toBe(1);
    const report = json<{ simulations: { verdict: string; iterations: { reason: string }[] }[] }>(run);
    expect(report.simulations.map((s) => s.verdict)).toEqual(['fail', 'fail']);
    expect(report.simulations[0]?.iterations[0]?.reason).toContain('No model is configured');
    expect((await hf.current.emu.client.eval.simulation.run.list()).results.length).toBeGreaterThan(0);
  });

  it('checks where --junit writes before anything runs (exit 2, no model request), and makes a missing folder', async () => {
    const dir = starter('junit-path');
    const blocker = join(hf.current.home, 'junit-blocker');
    writeFileSync(blocker, 'x');
    const asked = model.requests.length;
    const bad = await hf.current.voice(['test', dir, '--llm', model.url, '--junit', join(blocker, 'voice.xml')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`--junit ${join(blocker, 'voice.xml')}: cannot write there`);
    expect(bad.stderr).not.toContain('    at ');
    expect(model.requests.length).toBe(asked);
    const nested = join(hf.current.home, 'reports', 'ci', 'voice.xml');
    const good = await hf.current.voice(['test', dir, '--llm', model.url, '--filter', 'greets', '--junit', nested], { timeout: 60_000 });
    expect(good.exitCode, good.stderr).toBe(0);
    expect(readFileSync(nested, 'utf8')).toContain('<testsuites');
  });

  it('refuses a file or a missing path instead of a folder, saying which (exit 2, no stack trace)', async () => {
    const file = await hf.current.voice(['test', '/etc/passwd', '--llm', model.url]);
    expect(file.exitCode).toBe(2);
    expect(file.stderr).toContain('/etc/passwd is a file, not a resources folder.');
    expect(file.stderr).toContain('Pass the resources folder `voice pull` writes');
    const missing = await hf.current.voice(['test', join(hf.current.home, 'nowhere'), '--lint']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`${join(hf.current.home, 'nowhere')} does not exist.`);
    for (const run of [file, missing]) expect(run.stderr).not.toContain('    at ');
  });

  it('refuses a target the folder does not have (exit 2)', async () => {
    const run = await hf.current.voice(['test', starter('target'), '--target', 'nobody', '--llm', model.url]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--target nobody: no assistant or squad file with that id');
  });
});
