// `voice dev`'s --llm* options become the emulator's model configuration: one model name or a
// provider/model map, the key from --llm-key or VOICE_LLM_KEY, and usage errors for what cannot work.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../errors.js';
import type { DevOptions } from './options.js';
import { modelConfig } from './run.js';

const base = { port: 0, host: '127.0.0.1', speed: 1, inspector: false } as DevOptions;

describe('modelConfig', () => {
  it('takes the endpoint, one model name, and the key from VOICE_LLM_KEY unless --llm-key is given', () => {
    expect(modelConfig({ ...base, llm: 'http://127.0.0.1:11434/v1', llmModel: ['llama3.2'] }, { VOICE_LLM_KEY: 'sk-env' })).toEqual({
      url: 'http://127.0.0.1:11434/v1',
      model: 'llama3.2',
      apiKey: 'sk-env',
    });
    expect(modelConfig({ ...base, llm: 'http://h/v1', llmKey: 'sk-flag' }, { VOICE_LLM_KEY: 'sk-env' })).toEqual({ url: 'http://h/v1', apiKey: 'sk-flag' });
    expect(modelConfig(base, {})).toEqual({});
  });

  it('maps provider/model=NAME pairs', () => {
    const got = modelConfig({ ...base, llm: 'http://h/v1', llmModel: ['openai/gpt-4o-mini=llama3.2', 'anthropic/claude-3-5-haiku=qwen2.5'] }, {});
    expect(got.model).toEqual({ 'openai/gpt-4o-mini': 'llama3.2', 'anthropic/claude-3-5-haiku': 'qwen2.5' });
  });

  it('refuses mixed names, two bare names, and record with replay (exit 2)', () => {
    for (const opts of [
      { llm: 'http://h/v1', llmModel: ['a', 'openai/x=b'] },
      { llm: 'http://h/v1', llmModel: ['a', 'b'] },
      { llmRecord: 'a.json', llmReplay: 'b.json' },
    ]) {
      let error: unknown;
      try {
        modelConfig({ ...base, ...opts }, {});
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
    }
  });

  it('refuses, before anything starts, a replay file that is not a cassette, a record into a missing folder, --llm with a replay, and --llm-model with no --llm', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voice-dev-model-'));
    const notCassette = join(dir, 'notes.json');
    writeFileSync(notCassette, '{"hello":1}');
    const notJson = join(dir, 'passwd');
    writeFileSync(notJson, 'root:x:0:0:root:/root:/bin/bash\n');
    const cassette = join(dir, 'model.cassette.json');
    writeFileSync(cassette, JSON.stringify({ cassette: 1, exchanges: {} }));
    const cases: [Partial<DevOptions>, RegExp][] = [
      [{ llmReplay: notCassette }, /notes\.json is not a model cassette/],
      [{ llmReplay: notJson }, /passwd is not JSON, so not a model cassette/],
      [{ llmReplay: dir }, /is a folder, not a model cassette/],
      [{ llm: 'http://h/v1', llmReplay: cassette }, /--llm and --llm-replay/],
      [{ llm: 'http://h/v1', llmRecord: join(dir, 'missing', 'x.json') }, /the folder .*missing does not exist/],
      [{ llmModel: ['llama3.2'] }, /--llm-model names a model of the endpoint --llm gives/],
    ];
    try {
      for (const [opts, message] of cases) {
        let error: unknown;
        try {
          modelConfig({ ...base, ...opts }, {});
        } catch (e) {
          error = e;
        }
        expect(error, JSON.stringify(opts)).toBeInstanceOf(CliError);
        expect((error as CliError).exitCode).toBe(2);
        expect((error as CliError).message).toMatch(message);
      }
      // A real cassette replays; --llm-model with it maps the names the recording was made with.
      expect(modelConfig({ ...base, llmReplay: cassette, llmModel: ['llama3.2'] }, {})).toEqual({ replay: cassette, model: 'llama3.2' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
