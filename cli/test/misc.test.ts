// `voice catalogue`, `voice api`, `voice --version`, and the masked login prompt on a terminal.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, flatten } from '../../core/catalogue/index.js';
import { KEY, captured, harness, json } from './harness.js';
import type { Harness } from './harness.js';
import { ROOT } from './build.js';
import { plain, voiceTty } from './tty.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
  expect(captured.join('\n')).not.toContain(KEY);
});

describe('voice catalogue', () => {
  it('lists every operation with method, path, auth and command', async () => {
    const rows = json<{ method: string; path: string; auth: string; deprecated: boolean; command: string[] }[]>(await h.voice(['catalogue', '--json']));
    expect(rows).toHaveLength(flatten(catalogue).length);
    expect(rows).toContainEqual({ method: 'POST', path: '/test-suite/{testSuiteId}/run', auth: 'bearer', deprecated: false, command: ['test-suite', 'run', 'create', '<testSuiteId>'] });
    expect(rows).toContainEqual({ method: 'POST', path: '/credential/webhook', auth: 'none', deprecated: false, command: ['credential', 'webhook'] });
    expect(rows).toContainEqual({ method: 'POST', path: '/file', auth: 'bearer', deprecated: false, command: ['file', 'create', '<file>'] });
    expect(rows.filter((r) => r.deprecated).length).toBeGreaterThan(0);
    const piped = await h.voice(['catalogue']);
    expect(piped.stdout.split('\n')).toContain('GET\t/voice-library/{provider}\tbearer\tvoice voice-library get <provider>');
  });
});

describe('voice api', () => {
  it('sends any request with the configured key', async () => {
    const created = await h.voice(['api', 'POST', '/assistant', '--set', 'name=Via api', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const id = json<{ id: string }>(created).id;
    const got = await h.voice(['api', 'GET', `/assistant/${id}`]);
    expect(got.stdout).toMatch(/^name\tVia api$/m);
    const listed = json<{ id: string }[]>(await h.voice(['api', 'get', 'assistant', '--query', 'limit=1', '--json']));
    expect(listed).toHaveLength(1);
    expect((await h.voice(['api', 'DELETE', `/assistant/${id}`])).exitCode).toBe(2);
    expect((await h.voice(['api', 'DELETE', `/assistant/${id}`, '--yes'])).exitCode).toBe(0);
    expect((await h.voice(['api', 'FETCH', '/assistant'])).exitCode).toBe(2);
    expect((await h.voice(['api', 'GET', '/nope'])).exitCode).toBe(1);
  });
});

describe('voice --version and login on a terminal', () => {
  it('prints the package version', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    expect((await h.voice(['--version'])).stdout.trim()).toBe(version);
  });

  it('asks for the key with the input masked', async () => {
    const run = await voiceTty({ ...h.env, VOICE_API_KEY: '' }, ['login', '--profile', 'tty'], { input: `${KEY}\r`, after: 'input hidden' });
    expect(run.exitCode, run.stdout).toBe(0);
    const text = plain(run.stdout);
    expect(text).toContain('Paste your API key (input hidden): ');
    expect(text).toContain('*'.repeat(KEY.length));
    const cfg = JSON.parse(readFileSync(join(h.configDir, 'voice', 'config.json'), 'utf8'));
    expect(cfg.profiles.tty.apiKey).toBe(KEY);
  });
});
