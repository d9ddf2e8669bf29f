// `voice dev`'s --llm* options become the emulator's model configuration: one model name or a
// provider/model map, the key from --llm-key or VOICE_LLM_KEY, and usage errors for what cannot work.
import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import type { DevOptions } from './dev-options.js';
import { modelConfig } from './dev-run.js';

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
    for (const opts of [{ llmModel: ['a', 'openai/x=b'] }, { llmModel: ['a', 'b'] }, { llmRecord: 'a.json', llmReplay: 'b.json' }]) {
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
});
