// docs/testing-agents.md as it runs: its YAML files make a folder, its `voice test` commands run
// against a fake model standing in for the local one, the cassette it records replays in the
// GitHub Actions job's own command with no model called, and the JUnit file passes xmllint.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { byRole, testerTurn } from '#core/evals/roles.test-support';
import { ROOT } from './build.js';
import { fileHarness } from './harness.js';

const hf = fileHarness();
// The voice-mode section runs in cli/test/voice-test-voice-mode.test.ts.
const doc = readFileSync(join(ROOT, 'docs/testing-agents.md'), 'utf8').split('\n## Voice mode')[0] as string;
const blocks = (lang: string): string[] => [...doc.matchAll(new RegExp('```' + lang + '[^\\n]*\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] as string);
const LOCAL_MODEL = 'http://127.0.0.1:11434/v1';
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel(
    byRole({
      tester: (req) => (testerTurn(req) === 0 ? { text: 'A check-up next Tuesday after 2 pm, please.' } : { toolCalls: [{ name: 'endCall' }] }),
      target: (req) => ((req.body.messages as { content?: unknown }[]).at(-1)?.content === 'Hello?' ? { text: 'Riverside Clinic, good morning.' } : { text: 'Booked: Tuesday 14:30.' }),
      extractor: () => ({ text: '{"outcome":"booked"}' }),
      judge: () => ({ text: 'pass' }),
    }),
  );
});

afterAll(async () => {
  await model?.close();
});

/** Runs one documented command line (`voice ...` or `npx voice-agent-cli ...`) in the home folder, on the fake model. */
async function runLine(line: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const args = line
    .replace(/^npx voice-agent-cli /, 'voice ')
    .split(/\s+/)
    .slice(1)
    .map((a) => (a === LOCAL_MODEL ? model.url : a));
  return hf.current.voice(args, { timeout: 90_000 });
}

it("the guide's files, commands and CI job run as written", async () => {
  const home = hf.current.home;
  const starter = join(ROOT, 'fixtures/gitops/starter');
  // What the guide's files refer to: the clinic's assistant, tool and structured output, and a caller.
  for (const f of ['assistants/receptionist.md', 'tools/check-availability.yml', 'structuredOutputs/call-outcome.yml']) cpSync(join(starter, f), join(home, 'resources', f));
  mkdirSync(join(home, 'resources/simulations/personalities'), { recursive: true });
  writeFileSync(join(home, 'resources/simulations/personalities/hurried-caller.yml'), 'name: Hurried caller\nassistant:\n  model:\n    provider: openai\n    model: gpt-4o-mini\n');
  const files = blocks('yaml').filter((b) => b.startsWith('# resources/'));
  expect(files).toHaveLength(3);
  for (const b of files) {
    const path = (b.split('\n')[0] as string).slice(2);
    mkdirSync(join(home, path, '..'), { recursive: true });
    writeFileSync(join(home, path), b);
  }
  mkdirSync(join(home, 'test'), { recursive: true });

  // The import commands need a recorded call: cli/test/test-import.test.ts runs them.
  const lines = blocks('sh')
    .flatMap((b) => b.trim().split('\n'))
    .filter((l) => l.startsWith('voice test') && !l.startsWith('voice test import'));
  expect(lines).toHaveLength(4);
  for (const line of lines) {
    const run = await runLine(line);
    expect(run.exitCode, `${line}\n${run.stdout}\n${run.stderr}`).toBe(0);
  }
  expect(readFileSync(join(home, 'test/voice-cassette.json'), 'utf8')).toContain('"cassette": 1');

  const workflow = parse(blocks('yaml').find((b) => b.startsWith('# .github/workflows/')) as string) as { on: Record<string, unknown>; jobs: Record<string, { steps: { run?: string }[] }> };
  expect(Object.keys(workflow.on)).toEqual(['pull_request']);
  const ci = Object.values(workflow.jobs)[0]
    ?.steps.map((s) => s.run)
    .find((r) => r?.includes(' test ')) as string;
  // The package's own name: `npx voice` would fetch an unrelated package.
  expect(ci).toMatch(/^npx voice-agent-cli test /);
  const before = model.requests.length;
  const run = await runLine(ci);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  expect(model.requests.length).toBe(before);
  const xmllint = await execa('xmllint', ['--noout', '--schema', join(ROOT, 'fixtures/junit/jenkins-junit.xsd'), join(home, 'reports/voice-test.xml')], { reject: false });
  expect(xmllint.exitCode, String(xmllint.stderr)).toBe(0);

  // The sharded jobs, GitHub's matrix and GitLab's parallel, replay the same cassette; their
  // merge jobs make one JUnit report that passes the schema.
  const github = parse(blocks('yaml').find((b) => b.startsWith('# .github/workflows/voice-test-shards.yml')) as string) as {
    jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; steps: { run?: string }[] }>;
  };
  const gitlab = parse(blocks('yaml').find((b) => b.startsWith('# .gitlab-ci.yml')) as string) as Record<string, { parallel?: number; script: string[] }>;
  const runsOf = (steps: { run?: string }[] | string[]): string[] => steps.flatMap((s) => (typeof s === 'string' ? [s] : s.run ? [s.run] : [])).filter((r) => /\bvoice(-agent-cli)? test /.test(r));
  const shardJob = Object.values(github.jobs).find((j) => j.strategy) as { strategy: { matrix: { shard: number[] } }; steps: { run?: string }[] };
  const gitlabShard = Object.values(gitlab).find((j) => j.parallel) as { parallel: number; script: string[] };
  expect(shardJob.strategy.matrix.shard).toEqual([1, 2, 3]);
  expect(gitlabShard.parallel).toBe(3);
  for (const [shardLines, mergeLines] of [
    [
      shardJob.strategy.matrix.shard.map((n) => runsOf(shardJob.steps)[0]?.replaceAll('${{ matrix.shard }}', String(n)) as string),
      runsOf(Object.values(github.jobs).find((j) => !j.strategy)?.steps ?? []),
    ],
    [
      [1, 2, 3].map((n) => (runsOf(gitlabShard.script)[0] as string).replaceAll('$CI_NODE_INDEX', String(n)).replaceAll('$CI_NODE_TOTAL', '3')),
      runsOf(Object.values(gitlab).find((j) => !j.parallel)?.script ?? []),
    ],
  ] as const) {
    for (const line of [...shardLines, ...mergeLines]) {
      const r = await runLine(line);
      expect(r.exitCode, `${line}\n${r.stdout}${r.stderr}`).toBe(0);
    }
    expect(model.requests.length).toBe(before);
    const merged = await execa('xmllint', ['--noout', '--schema', join(ROOT, 'fixtures/junit/jenkins-junit.xsd'), join(home, 'reports/voice-test.xml')], { reject: false });
    expect(merged.exitCode, String(merged.stderr)).toBe(0);
    expect(readFileSync(join(home, 'reports/voice-test.xml'), 'utf8').match(/<testcase /g)).toHaveLength(2);
  }

  // A changed prompt has no recorded answer: the replay fails and says to record again.
  const scenario = join(home, 'resources/simulations/scenarios/book-a-checkup.yml');
  writeFileSync(scenario, readFileSync(scenario, 'utf8').replace('after 2 pm', 'after 3 pm'));
  const stale = await runLine(ci);
  expect(stale.exitCode).toBe(1);
  expect(stale.stdout).toContain('record it again with --llm-record');
}, 240_000);
