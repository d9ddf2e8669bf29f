// Login, logout, auth status, profiles and the precedence of flags, environment and profile;
// the config file is 0600 in a 0700 folder, and no key is ever printed.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, captured, harness, json } from './harness.js';
import type { Harness } from './harness.js';

const CI_KEY = 'sk-ci-profile-key-9876543210';
const WRONG = 'sk-wrong-key-5555555555555';
const NO_ENV = { VOICE_API_KEY: undefined };

interface Status {
  profile: string;
  baseUrl: string;
  key: string | null;
  keySource: string;
  keyWorks: boolean | null;
}

let h: Harness;
let strict: Harness;
beforeAll(async () => {
  h = await harness();
  strict = await harness({ apiKey: KEY });
});
afterAll(async () => {
  await h?.close();
  await strict?.close();
  const all = captured.join('\n');
  for (const k of [KEY, CI_KEY, WRONG]) expect(all).not.toContain(k);
});

describe('login and the config file', () => {
  it('saves the key from stdin to a 0600 file in a 0700 folder', async () => {
    const run = await h.voice(['login', '--with-token'], { env: NO_ENV, input: `${KEY}\n` });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('****cdef');
    const file = join(h.configDir, 'voice', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(h.configDir, 'voice')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.apiKey).toBe(KEY);
  });

  it('uses the saved key, and auth status says where it came from', async () => {
    const list = await h.voice(['assistant', 'list', '--json'], { env: NO_ENV });
    expect(list.exitCode, list.stderr).toBe(0);
    const status = await h.voice(['auth', 'status', '--json'], { env: NO_ENV });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(json<Status>(status)).toMatchObject({ profile: 'default', baseUrl: h.emu.url, key: '****cdef', keySource: 'profile "default"', keyWorks: true });
    const plain = await h.voice(['auth', 'status'], { env: NO_ENV });
    expect(plain.stdout).toMatch(/^profile\tdefault$/m);
    expect(plain.stdout).toMatch(/^key\t\*\*\*\*cdef$/m);
  });

  it('keeps profiles apart (--profile and VOICE_PROFILE)', async () => {
    expect((await h.voice(['login', '--with-token', '--profile', 'ci'], { env: NO_ENV, input: CI_KEY })).exitCode).toBe(0);
    const byFlag = json<Status>(await h.voice(['auth', 'status', '--json', '--profile', 'ci'], { env: NO_ENV }));
    expect(byFlag).toMatchObject({ profile: 'ci', key: '****3210', keySource: 'profile "ci"' });
    const byEnv = json<Status>(await h.voice(['auth', 'status', '--json'], { env: { ...NO_ENV, VOICE_PROFILE: 'ci' } }));
    expect(byEnv).toMatchObject({ profile: 'ci', key: '****3210' });
  });

  it('applies flags > environment > profile', async () => {
    const env = json<Status>(await h.voice(['auth', 'status', '--json'], { env: { VOICE_API_KEY: CI_KEY } }));
    expect(env).toMatchObject({ keySource: 'VOICE_API_KEY', key: '****3210' });
    for (const name of ['VAPI_API_KEY', 'VAPI_TOKEN']) {
      const alt = json<Status>(await h.voice(['auth', 'status', '--json'], { env: { ...NO_ENV, [name]: CI_KEY } }));
      expect(alt).toMatchObject({ keySource: name, key: '****3210' });
    }
    const flag = json<Status>(await h.voice(['auth', 'status', '--json', '--api-key', CI_KEY]));
    expect(flag).toMatchObject({ keySource: '--api-key', key: '****3210' });
    // An explicit --profile is a flag too, so its key beats the environment's.
    const profileFlag = json<Status>(await h.voice(['auth', 'status', '--json', '--profile', 'ci'], { env: { VOICE_API_KEY: KEY } }));
    expect(profileFlag).toMatchObject({ keySource: 'profile "ci"' });
    const url = json<{ url: string }>(await h.voice(['assistant', 'list', '--dry-run', '--json', '--api-url', 'http://127.0.0.1:9/x/']));
    expect(url.url).toBe('http://127.0.0.1:9/x/assistant');
    const local = json<{ url: string; headers: Record<string, string> }>(
      await h.voice(['assistant', 'list', '--dry-run', '--json', '--local'], { env: { ...NO_ENV, XDG_CONFIG_HOME: join(h.home, 'empty') } }),
    );
    expect(local.url).toBe('http://127.0.0.1:4010/assistant');
    expect(local.headers.authorization).toMatch(/^Bearer \*{4}/);
    // --local beats VOICE_API_URL (a flag beats the environment)...
    const empty = { ...NO_ENV, XDG_CONFIG_HOME: join(h.home, 'empty') };
    const overEnv = json<{ url: string }>(await h.voice(['assistant', 'list', '--dry-run', '--json', '--local'], { env: { ...empty, VOICE_API_URL: 'http://127.0.0.1:9' } }));
    expect(overEnv.url).toBe('http://127.0.0.1:4010/assistant');
  });

  it('lets an explicit --api-url name the URL with --local, which still supplies its placeholder key', async () => {
    const empty = { ...NO_ENV, XDG_CONFIG_HOME: join(h.home, 'empty') };
    for (const args of [
      ['--local', '--api-url', h.emu.url],
      ['--api-url', h.emu.url, '--local'],
    ]) {
      const run = await h.voice(['assistant', 'list', '--json', ...args], { env: empty });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(Array.isArray(JSON.parse(run.stdout))).toBe(true);
    }
    const status = json<Status & { baseUrlSource: string }>(await h.voice(['auth', 'status', '--json', '--local', '--api-url', h.emu.url], { env: { ...empty, VOICE_API_URL: 'http://127.0.0.1:9' } }));
    expect(status).toMatchObject({ baseUrl: h.emu.url, baseUrlSource: '--api-url', keySource: '--local (placeholder key)', keyWorks: true });
  });

  it('logs out', async () => {
    const run = await h.voice(['logout', '--profile', 'ci'], { env: NO_ENV });
    expect(run.exitCode).toBe(0);
    const cfg = JSON.parse(readFileSync(join(h.configDir, 'voice', 'config.json'), 'utf8'));
    expect(cfg.profiles.ci).toBeUndefined();
    expect(cfg.profiles.default.apiKey).toBe(KEY);
    const again = await h.voice(['logout', '--profile', 'ci'], { env: NO_ENV });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toMatch(/not logged in/i);
  });
});

describe('missing and rejected keys exit 4', () => {
  it('refuses to run without a key and says how to get one', async () => {
    const run = await strict.voice(['assistant', 'list'], { env: NO_ENV });
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain('voice login');
    expect(run.stderr).toContain('VOICE_API_KEY');
    expect((await strict.voice(['auth', 'status'], { env: NO_ENV })).exitCode).toBe(4);
  });

  it('reports a rejected key', async () => {
    const list = await strict.voice(['assistant', 'list'], { env: { VOICE_API_KEY: WRONG } });
    expect(list.exitCode).toBe(4);
    expect(list.stderr).toMatch(/401/);
    const status = await strict.voice(['auth', 'status', '--json'], { env: { VOICE_API_KEY: WRONG } });
    expect(status.exitCode).toBe(4);
    expect(json<Status>(status).keyWorks).toBe(false);
  });

  it('does not save a key the API rejects', async () => {
    const run = await strict.voice(['login', '--with-token'], { env: NO_ENV, input: WRONG });
    expect(run.exitCode).toBe(4);
    expect(() => statSync(join(strict.configDir, 'voice', 'config.json'))).toThrow();
  });

  it('asks for --with-token when there is no terminal', async () => {
    const run = await strict.voice(['login'], { env: NO_ENV });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--with-token');
  });
});
