// `voice test --shard I/N` and `voice test merge` through the built CLI, on a 20-case folder and a
// fake model: the shards are disjoint and complete, within one case of each other by count; the
// merged JUnit passes Jenkins' schema; a case failing in one job and passing in a re-run of its
// shard is flaky; a missing shard fails the merge; the merged times balance the next cut by time.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { ROOT } from './build.js';
import { fileHarness, json } from './harness.js';

const hf = fileHarness();
let model: FakeModel;
/** The case the model gets wrong while set. */
let wrong: string | undefined;

beforeAll(async () => {
  model = await startFakeModel((req) => {
    const last = (req.body.messages as { content?: unknown }[]).at(-1);
    return { text: last?.content === wrong ? 'no' : 'ok' };
  });
});
afterAll(async () => {
  await model?.close();
});

function twenty(): string {
  const dir = join(hf.current.home, 'twenty');
  mkdirSync(join(dir, 'assistants'), { recursive: true });
  mkdirSync(join(dir, 'evals'), { recursive: true });
  writeFileSync(join(dir, 'assistants/desk.yml'), 'name: Desk\nmodel:\n  provider: openai\n  model: gpt-4o\n');
  for (let i = 1; i <= 20; i++) {
    const n = String(i).padStart(2, '0');
    writeFileSync(
      join(dir, `evals/case-${n}.yml`),
      `name: Case ${n}\ntype: chat.mockConversation\nmessages:\n  - role: user\n    content: Case ${n}\n  - role: assistant\n    judgePlan:\n      type: exact\n      content: ok\n`,
    );
  }
  return dir;
}

const shardRun = (dir: string, shard: string, junit: string) => hf.current.voice(['test', dir, '--shard', shard, '--llm', model.url, '--junit', junit], { timeout: 90_000 });

describe('voice test --shard and merge', () => {
  it('cuts 20 cases into 3 disjoint, complete shards of 7, 7 and 6; runs them; merges them into valid JUnit with a flaky case', async () => {
    const dir = twenty();
    const lists = [];
    for (const i of [1, 2, 3]) {
      const run = await hf.current.voice(['test', dir, '--shard', `${i}/3`, '--list', '--json']);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain(`Shard ${i}/3`);
      expect(run.stderr).toContain('balanced by count');
      lists.push(json<{ cases: { key: string }[]; shard: { partition: string } }>(run));
    }
    const keys = lists.map((l) => l.cases.map((c) => c.key));
    expect(keys.map((k) => k.length).sort()).toEqual([6, 7, 7]);
    expect(new Set(keys.flat()).size).toBe(20);
    expect(keys.flat()).toHaveLength(20);
    expect(new Set(lists.map((l) => l.shard.partition)).size).toBe(1);

    const flakyKey = keys[0]?.[0] as string;
    const reports = join(hf.current.home, 'reports');
    wrong = `Case ${flakyKey.slice(-2)}`;
    const first = await shardRun(dir, '1/3', join(reports, 'shard-1.xml'));
    expect(first.exitCode).toBe(1);
    wrong = undefined;
    const rerun = await shardRun(dir, '1/3', join(reports, 'shard-1-rerun.xml'));
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    for (const i of [2, 3]) expect((await shardRun(dir, `${i}/3`, join(reports, `shard-${i}.xml`))).exitCode).toBe(0);

    const all = join(reports, 'all.xml');
    const times = join(dir, '.voice-times.json');
    const files = ['shard-1.xml', 'shard-1-rerun.xml', 'shard-2.xml', 'shard-3.xml'].map((f) => join(reports, f));
    const merged = await hf.current.voice(['test', 'merge', ...files, '--junit', all, '--times', times]);
    expect(merged.exitCode).toBe(1);
    expect(merged.stderr).toContain('19 of 20 eval(s) passed, 1 flaky');
    expect(merged.stdout).toMatch(new RegExp(`Case ${flakyKey.slice(-2)}\\s+flaky`));
    const xsd = await execa('xmllint', ['--noout', '--schema', join(ROOT, 'fixtures/junit/jenkins-junit.xsd'), all], { reject: false });
    expect(xsd.exitCode, String(xsd.stderr)).toBe(0);
    const xml = readFileSync(all, 'utf8');
    // Shard 1's 7 cases ran twice (the job and its re-run): each run is a test case.
    expect(xml.match(/<testcase /g)).toHaveLength(27);
    expect(xml).toContain('Flaky: passed 1 of 2.');

    // The merged report merges again, as JSON too.
    const again = await hf.current.voice(['test', 'merge', all, '--json']);
    expect(json<{ evals: { verdict: string }[]; problems: string[] }>(again)).toMatchObject({ problems: [] });
    expect(json<{ evals: { verdict: string }[] }>(again).evals.filter((e) => e.verdict === 'flaky')).toHaveLength(1);

    // The times the merge wrote balance the next cut by time.
    expect(Object.keys((JSON.parse(readFileSync(times, 'utf8')) as { ms: object }).ms)).toHaveLength(20);
    const timed = await hf.current.voice(['test', dir, '--shard', '1/3', '--list']);
    expect(timed.stderr).toContain("balanced by the last run's times");
  }, 240_000);

  it('a missing shard fails the merge with a failed case CI shows (exit 1)', async () => {
    const reports = join(hf.current.home, 'reports');
    const partial = join(reports, 'partial.xml');
    const run = await hf.current.voice(['test', 'merge', join(reports, 'shard-1-rerun.xml'), join(reports, 'shard-2.xml'), '--junit', partial]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('shard 3/3 is missing: no report of it was given');
    expect(readFileSync(partial, 'utf8')).toContain('<testsuite name="voice test merge"');
    const bad = await hf.current.voice(['test', 'merge', join(ROOT, 'package.json')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('not a report of voice test --json');
  });
});
