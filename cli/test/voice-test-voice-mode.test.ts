// `voice test` through the built CLI with voice-mode simulations (`x-voice.transport:
// vapi.websocket`), on the files and commands of docs/testing-agents.md's voice-mode section: a
// persona that talks over the assistant passes an evaluation of whether it was interrupted, one
// that waits its turn fails it (the fake extractor answers from the written audio timeline alone);
// in chat mode the lint flags the evaluation; bad voiceMode fields are reported with file:line.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { byRole, testerTurn, transcriptIn } from '#core/evals/roles.test-support';
import { ROOT } from './build.js';
import { fileHarness } from './harness.js';

const hf = fileHarness();
const LONG = 'We have tables at six, seven and eight tonight, and the patio is open if the weather holds, which it should.';
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel(
    byRole({
      tester: (req) => (testerTurn(req) === 0 ? { text: "I'd like a table for two tonight." } : testerTurn(req) === 1 ? { text: 'Seven works for me.' } : { toolCalls: [{ name: 'endCall' }] }),
      target: (req) => ({ text: (req.body.messages as { role: string }[]).filter((m) => m.role === 'assistant').length < 2 ? LONG : 'Great, you are booked for seven.' }),
      extractor: (req) => ({ text: JSON.stringify(transcriptIn(req).includes('INTERRUPTION: the user interrupted the assistant')) }),
      judge: () => ({ text: 'pass' }),
    }),
  );
});

afterAll(async () => {
  await model?.close();
});

/** The voice-mode section of docs/testing-agents.md: its files and its `voice test` lines. */
const section = readFileSync(join(ROOT, 'docs/testing-agents.md'), 'utf8').split('\n## Voice mode')[1] as string;
const blocks = (lang: string): string[] => [...section.matchAll(new RegExp('```' + lang + '[^\\n]*\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] as string);
const DOC_FILES = Object.fromEntries(blocks('yaml').map((b) => [(b.split('\n')[0] as string).slice('# resources/'.length), b]));
const DOC_LINES = blocks('sh').flatMap((b) => b.trim().split('\n'));

const FILES: Record<string, string> = {
  ...DOC_FILES,
  'assistants/bella.yml': 'name: Bella Cucina\nfirstMessage: Bella Cucina, hello.\nstopSpeakingPlan:\n  numWords: 0\n  voiceSeconds: 0.2\nmodel:\n  provider: openai\n  model: gpt-4o\n',
};

/** A persona that waits its turn, in voice mode too. */
const WAITS = {
  'simulations/personalities/waits.yml': 'name: Waits\nassistant:\n  model:\n    provider: openai\n    model: gpt-4o-mini\n',
  'simulations/tests/waits.yml': 'name: Caller waits their turn\npersonalityId: waits\nscenarioId: book-a-table\nx-voice:\n  transport: vapi.websocket\n',
};

function folder(name: string, changes: Record<string, string | undefined> = {}): string {
  const dir = join(hf.current.home, name, 'resources');
  rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of Object.entries({ ...FILES, ...changes })) {
    if (text === undefined) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** Runs a documented `voice test resources ...` line on `dir`, the fake model standing in for the local one. */
function runLine(line: string, dir: string) {
  const args = line
    .split(/\s+/)
    .slice(1)
    .map((a) => (a === 'resources' ? dir : a === 'http://127.0.0.1:11434/v1' ? model.url : a));
  return hf.current.voice(args, { timeout: 90_000 });
}

describe('voice test: voice-mode simulations', () => {
  it('runs the guide as written; judges the audio-only evaluation on the call: passes when the persona talks over the assistant, fails when it waits', async () => {
    expect(Object.keys(DOC_FILES).sort()).toEqual([
      'simulations/personalities/talks-over.yml',
      'simulations/scenarios/book-a-table.yml',
      'simulations/tests/talks-over.yml',
      'structuredOutputs/interrupted.yml',
    ]);
    expect(DOC_LINES).toHaveLength(2);
    const dir = folder('guide');
    for (const line of DOC_LINES) {
      const run = await runLine(line, dir);
      expect(run.exitCode, `${line}\n${run.stdout}\n${run.stderr}`).toBe(0);
      if (line.includes('--llm')) expect(run.stdout).toMatch(/Caller talks over the assistant\s+-\s+1\/1\s+100%\s+pass/);
    }
    const both = await runLine(DOC_LINES[1]!.replace(' --filter talks', ''), folder('both', WAITS));
    expect(both.exitCode, both.stderr).toBe(1);
    expect(both.stdout).toMatch(/Caller talks over the assistant\s+-\s+1\/1\s+100%\s+pass/);
    expect(both.stdout).toMatch(/Caller waits their turn\s+-\s+0\/1\s+0%\s+fail/);
    expect(both.stdout).toContain('Interrupted: expected = true, extracted false');
    expect(both.stderr).not.toMatch(/\n\s+at /);
  }, 180_000);

  it('in chat mode the lint still flags it; bad voiceMode fields are reported with file:line, exit 2', async () => {
    const chat = folder('chat', {
      ...WAITS,
      'simulations/tests/talks-over.yml': 'name: Caller talks over the assistant\npersonalityId: talks-over\nscenarioId: book-a-table\n',
      'simulations/personalities/waits.yml':
        'name: Waits\nassistant:\n  model:\n    provider: openai\n    model: gpt-4o-mini\n  metadata:\n    voiceMode:\n      noise: { snrDb: loud }\n      dtmf: 12x\n      turns:\n        - interrupt: { afterSeconds: -1 }\n',
    });
    const run = await hf.current.voice(['test', chat, '--lint']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/simulations\/scenarios\/book-a-table\.yml:\d+:\d+: every evaluation needs audio .* run as chat/);
    expect(run.stderr).toMatch(/simulations\/personalities\/waits\.yml:8:\d+: assistant\.metadata\.voiceMode\.noise\.snrDb must be a number of decibels/);
    expect(run.stderr).toMatch(/waits\.yml:9:\d+: assistant\.metadata\.voiceMode\.dtmf must be keypad keys/);
    expect(run.stderr).toMatch(/waits\.yml:11:\d+: assistant\.metadata\.voiceMode\.turns\[0\]\.interrupt must be/);
    const bad = await hf.current.voice([
      'test',
      folder('transport', { ...WAITS, 'simulations/tests/waits.yml': 'name: W\npersonalityId: waits\nscenarioId: book-a-table\nx-voice:\n  transport: phone\n' }),
      '--lint',
    ]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/simulations\/tests\/waits\.yml:5:\d+: x-voice\.transport must be vapi\.webchat \(chat, the default\) or vapi\.websocket/);
  });
});
