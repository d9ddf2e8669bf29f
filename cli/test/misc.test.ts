// `voice catalogue`, `voice api`, `voice --version`, and the masked login prompt on a terminal.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue, flatten } from '#core/catalogue/index';
import { fileHarness, json, KEY } from './harness.js';
import { ROOT } from './build.js';
import { plain, voiceTty } from './tty.js';

const hf = fileHarness();

describe('voice catalogue', () => {
  it('lists every operation with method, path, auth and command', async () => {
    const rows = json<{ method: string; path: string; auth: string; deprecated: boolean; command: string[] }[]>(await hf.current.voice(['catalogue', '--json']));
    expect(rows).toHaveLength(flatten(catalogue).length);
    expect(rows).toContainEqual({ method: 'POST', path: '/test-suite/{testSuiteId}/run', auth: 'bearer', deprecated: false, command: ['test-suite', 'run', 'create', '<testSuiteId>'] });
    expect(rows).toContainEqual({ method: 'POST', path: '/credential/webhook', auth: 'none', deprecated: false, command: ['credential', 'webhook'] });
    expect(rows).toContainEqual({ method: 'POST', path: '/file', auth: 'bearer', deprecated: false, command: ['file', 'create', '<file>'] });
    expect(rows.filter((r) => r.deprecated).length).toBeGreaterThan(0);
    const piped = await hf.current.voice(['catalogue']);
    expect(piped.stdout.split('\n')).toContain('GET\t/voice-library/{provider}\tbearer\tvoice voice-library get <provider>');
  });
});

describe('voice api', () => {
  it('sends any request with the configured key', async () => {
    const created = await hf.current.voice(['api', 'POST', '/assistant', '--set', 'name=Via api', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const id = json<{ id: string }>(created).id;
    const got = await hf.current.voice(['api', 'GET', `/assistant/${id}`]);
    expect(got.stdout).toMatch(/^name\tVia api$/m);
    const listed = json<{ id: string }[]>(await hf.current.voice(['api', 'get', 'assistant', '--query', 'limit=1', '--json']));
    expect(listed).toHaveLength(1);
    expect((await hf.current.voice(['api', 'DELETE', `/assistant/${id}`])).exitCode).toBe(2);
    expect((await hf.current.voice(['api', 'DELETE', `/assistant/${id}`, '--yes'])).exitCode).toBe(0);
    expect((await hf.current.voice(['api', 'FETCH', '/assistant'])).exitCode).toBe(2);
    expect((await hf.current.voice(['api', 'GET', '/nope'])).exitCode).toBe(1);
  });
});

describe('voice --version and login on a terminal', () => {
  it('prints the package version', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    expect((await hf.current.voice(['--version'])).stdout.trim()).toBe(version);
  });

  it('asks for the key with the input masked', async () => {
    const run = await voiceTty({ ...hf.current.env, VOICE_API_KEY: '' }, ['login', '--profile', 'tty'], { input: `${KEY}\r`, after: 'input hidden' });
    expect(run.exitCode, run.stdout).toBe(0);
    const text = plain(run.stdout);
    expect(text).toContain('Paste your API key (input hidden): ');
    expect(text).toContain('*'.repeat(KEY.length));
    const cfg = JSON.parse(readFileSync(join(hf.current.configDir, 'voice', 'config.json'), 'utf8'));
    expect(cfg.profiles.tty.apiKey).toBe(KEY);
  });
});
