// `voice test` through the built CLI with voice-mode simulations (`x-voice.transport:
// vapi.websocket`): a persona that talks over the assistant passes an evaluation of whether it
// was interrupted, one that waits its turn fails it (the fake extractor answers from the written
// audio timeline alone); in chat mode the lint flags the evaluation; bad voiceMode fields are
// reported with file:line.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { byRole, testerTurn, transcriptIn } from '#core/evals/roles.test-support';
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

const FILES: Record<string, string> = {
  'assistants/bella.yml':
    'name: Bella Cucina\nfirstMessage: Bella Cucina, hello.\nstopSpeakingPlan:\n  numWords: 0\n  voiceSeconds: 0.2\nmodel:\n  provider: openai\n  model: gpt-4o\n',
  'structuredOutputs/interrupted.yml': 'name: Interrupted\ntype: ai\nschema:\n  type: boolean\n  description: Did the caller interrupt the assistant?\n',
  'simulations/scenarios/book.yml':
    'name: Book a table\ninstructions: Book a table for two tonight.\nevaluations:\n  - structuredOutputId: interrupted\n    comparator: "="\n    value: true\n',
  'simulations/personalities/talks-over.yml':
    'name: Talks over\nassistant:\n  model:\n    provider: openai\n    model: gpt-4o-mini\n  metadata:\n    voiceMode:\n      turns:\n        - {}\n        - interrupt: { afterWords: 3 }\n',
  'simulations/personalities/waits.yml': 'name: Waits\nassistant:\n  model:\n    provider: openai\n    model: gpt-4o-mini\n',
  'simulations/tests/talks-over.yml': 'name: Caller talks over the assistant\npersonalityId: talks-over\nscenarioId: book\nx-voice:\n  transport: vapi.websocket\n',
  'simulations/tests/waits.yml': 'name: Caller waits their turn\npersonalityId: waits\nscenarioId: book\nx-voice:\n  transport: vapi.websocket\n',
};

function folder(name: string, changes: Record<string, string | undefined> = {}): string {
  const dir = join(hf.current.home, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of Object.entries({ ...FILES, ...changes })) {
    if (text === undefined) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe('voice test: voice-mode simulations', () => {
  it('judges an audio-only evaluation on the call: passes when the persona talks over the assistant, fails when it waits', async () => {
    const dir = folder('voice');
    const lint = await hf.current.voice(['test', dir, '--lint']);
    expect(lint.exitCode, lint.stderr).toBe(0);
    const run = await hf.current.voice(['test', dir, '--llm', model.url], { timeout: 90_000 });
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/Caller talks over the assistant\s+-\s+1\/1\s+100%\s+pass/);
    expect(run.stdout).toMatch(/Caller waits their turn\s+-\s+0\/1\s+0%\s+fail/);
    expect(run.stdout).toContain('Interrupted: expected = true, extracted false');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('in chat mode the lint still flags it; bad voiceMode fields are reported with file:line, exit 2', async () => {
    const chat = folder('chat', {
      'simulations/tests/talks-over.yml': 'name: Caller talks over the assistant\npersonalityId: talks-over\nscenarioId: book\n',
      'simulations/personalities/waits.yml':
        'name: Waits\nassistant:\n  model:\n    provider: openai\n    model: gpt-4o-mini\n  metadata:\n    voiceMode:\n      noise: { snrDb: loud }\n      dtmf: 12x\n      turns:\n        - interrupt: { afterSeconds: -1 }\n',
    });
    const run = await hf.current.voice(['test', chat, '--lint']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/simulations\/scenarios\/book\.yml:4:\d+: every evaluation needs audio .* run as chat/);
    expect(run.stderr).toMatch(/simulations\/personalities\/waits\.yml:8:\d+: assistant\.metadata\.voiceMode\.noise\.snrDb must be a number of decibels/);
    expect(run.stderr).toMatch(/waits\.yml:9:\d+: assistant\.metadata\.voiceMode\.dtmf must be keypad keys/);
    expect(run.stderr).toMatch(/waits\.yml:11:\d+: assistant\.metadata\.voiceMode\.turns\[0\]\.interrupt must be/);
    const bad = await hf.current.voice(['test', folder('transport', { 'simulations/tests/waits.yml': 'name: W\npersonalityId: waits\nscenarioId: book\nx-voice:\n  transport: phone\n' }), '--lint']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/simulations\/tests\/waits\.yml:5:\d+: x-voice\.transport must be vapi\.webchat \(chat, the default\) or vapi\.websocket/);
  });
});
