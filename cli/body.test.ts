import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBody, parseSetValue, setPath } from './body.js';

describe('--set values', () => {
  it('parses JSON when it parses and keeps strings otherwise', () => {
    expect(parseSetValue('600')).toBe(600);
    expect(parseSetValue('true')).toBe(true);
    expect(parseSetValue('[1,"a"]')).toEqual([1, 'a']);
    expect(parseSetValue('Front desk')).toBe('Front desk');
    expect(parseSetValue('"quoted"')).toBe('quoted');
  });

  it('sets dotted paths, creating objects and arrays', () => {
    const body: Record<string, unknown> = { model: { provider: 'openai' } };
    setPath(body, 'model.temperature', 0.2);
    setPath(body, 'members.0.assistantId', 'a1');
    expect(body).toEqual({ model: { provider: 'openai', temperature: 0.2 }, members: [{ assistantId: 'a1' }] });
    expect(() => setPath(body, 'a..b', 1)).toThrow(/empty segment/);
    expect(() => setPath(body, '__proto__.x', 1)).toThrow();
  });
});

describe('buildBody', () => {
  it('merges --set over the file, later values winning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voice-body-'));
    const file = join(dir, 'a.json');
    writeFileSync(file, JSON.stringify({ name: 'A', model: { provider: 'openai', model: 'gpt-4o' } }));
    expect(await buildBody(file, ['name=Front desk', 'model.model=gpt-4o-mini', 'maxDurationSeconds=600'])).toEqual({
      name: 'Front desk',
      model: { provider: 'openai', model: 'gpt-4o-mini' },
      maxDurationSeconds: 600,
    });
    expect(await buildBody(undefined, [])).toEqual({});
  });

  it('refuses a missing file and --set over a non-object', async () => {
    await expect(buildBody('/nonexistent/x.json', [])).rejects.toThrow(/no such file/);
    const dir = mkdtempSync(join(tmpdir(), 'voice-body-'));
    writeFileSync(join(dir, 'arr.json'), '[1]');
    await expect(buildBody(join(dir, 'arr.json'), ['a=1'])).rejects.toThrow(/an array/);
    await expect(buildBody(undefined, ['=x'])).rejects.toThrow(/key=value/);
  });
});
