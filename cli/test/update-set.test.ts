// `voice <resource> update <id> --set a.b=c` through the real CLI against the emulator: the
// resource is read and the touched objects sent whole, values typed by the field's schema, unknown
// fields and values refused before anything is sent, `--unset` removes. The docs' own update
// example runs here exactly as written.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wordsOf } from '../../docs/words.js';
import { ROOT } from './build.js';
import { fileHarness, json } from './harness.js';

const hf = fileHarness();

interface Assistant {
  id: string;
  name?: string;
  model?: Record<string, unknown>;
  voice?: Record<string, unknown>;
}

async function makeAssistant(): Promise<Assistant> {
  const run = await hf.current.voice([
    'assistant',
    'create',
    '--set',
    'name=Desk',
    '--set',
    'model.provider=openai',
    '--set',
    'model.model=gpt-4o',
    '--set',
    'model.maxTokens=200',
    '--set',
    'model.messages=[{"role":"system","content":"Be brief."}]',
    '--json',
  ]);
  expect(run.exitCode, run.stderr).toBe(0);
  return json<Assistant>(run);
}

const patches = (id: string): number => hf.current.emu.record.list().filter((e) => e.kind === 'request' && e.method === 'PATCH' && e.path === `/assistant/${id}`).length;

/** The docs' update example: the first line of a user doc that runs `voice assistant update <id> --set`. */
function docsUpdateExample(): string {
  const docs = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  for (const doc of docs) {
    const line = readFileSync(join(ROOT, doc), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('voice --local assistant update $ID --set name="Front desk"'));
    if (line) return line.split(/\s+#/)[0] as string;
  }
  throw new Error('no doc holds the update example');
}

describe('update --set', () => {
  it("runs the docs' example: the name and the temperature change, the model keeps its provider and the rest", async () => {
    const a = await makeAssistant();
    const line = docsUpdateExample();
    expect(line).toBe('voice --local assistant update $ID --set name="Front desk" --set model.temperature=0.2');
    // The harness's emulator stands in for --local.
    const args = wordsOf(line)
      .slice(1)
      .filter((w) => w !== '--local')
      .map((w) => (w === '$ID' ? a.id : w));
    const run = await hf.current.voice([...args, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const got = json<Assistant>(await hf.current.voice(['assistant', 'get', a.id, '--json']));
    expect(got.name).toBe('Front desk');
    expect(got.model).toEqual({ ...a.model, temperature: 0.2 });
  });

  it('types a value by the field: a text field gets the text, a number field a number', async () => {
    const a = await makeAssistant();
    const run = await hf.current.voice(['assistant', 'update', a.id, '--set', 'name=12345', '--set', 'model.maxTokens=300', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(json<Assistant>(run)).toMatchObject({ name: '12345', model: { maxTokens: 300, provider: 'openai' } });
    const dry = await hf.current.voice(['call', 'create', '--set', 'customer.number=12345', '--set', `assistantId=${a.id}`, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(json<{ body: unknown }>(dry).body).toEqual({ customer: { number: '12345' }, assistantId: a.id });
  });

  it('refuses a value of the wrong type before sending (a number field given words)', async () => {
    const a = await makeAssistant();
    const before = patches(a.id);
    const run = await hf.current.voice(['assistant', 'update', a.id, '--set', 'model.temperature=hot']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--set model.temperature=hot: model.temperature takes a number.');
    const flag = await hf.current.voice(['assistant', 'update', a.id, '--set', 'firstMessageInterruptionsEnabled=maybe']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain('firstMessageInterruptionsEnabled takes a boolean');
    expect(patches(a.id)).toBe(before);
  });

  it('refuses an unknown field before sending, naming the closest known one', async () => {
    const a = await makeAssistant();
    const before = patches(a.id);
    const run = await hf.current.voice(['assistant', 'update', a.id, '--set', 'model.temprature=0.5']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('model.temprature: unknown field. Did you mean model.temperature?');
    expect(run.stderr).not.toContain('at ');
    const top = await hf.current.voice(['assistant', 'update', a.id, '--set', 'nmae=x']);
    expect(top.exitCode).toBe(2);
    expect(top.stderr).toContain('Did you mean name?');
    expect(patches(a.id)).toBe(before);
  });

  it('refuses a value outside an enum, suggesting the closest', async () => {
    const a = await makeAssistant();
    const run = await hf.current.voice(['assistant', 'update', a.id, '--set', 'firstMessageMode=assistant-speaks-frist']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('Did you mean assistant-speaks-first?');
    const tool = await hf.current.voice(['tool', 'create', '--set', 'type=functoin']);
    expect(tool.exitCode).toBe(2);
    expect(tool.stderr).toContain('Did you mean function?');
    expect(patches(a.id)).toBe(0);
  });

  it('replaces arrays instead of merging them, and --unset removes a field', async () => {
    const a = await makeAssistant();
    const run = await hf.current.voice(['assistant', 'update', a.id, '--set', 'model.messages=[{"role":"system","content":"Be kind."}]', '--unset', 'model.maxTokens', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const got = json<Assistant>(await hf.current.voice(['assistant', 'get', a.id, '--json']));
    expect(got.model).toEqual({ provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'Be kind.' }] });
    const bad = await hf.current.voice(['assistant', 'update', a.id, '--unset', 'model.maxTokns']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Did you mean model.maxTokens?');
  });
});
