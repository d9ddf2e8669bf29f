import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProfile, resolveDemoConfig } from './config.js';

const home = mkdtempSync(join(tmpdir(), 'voice-demo-config-'));
const xdg = join(home, 'config');
mkdirSync(join(xdg, 'voice'), { recursive: true });
writeFileSync(
  join(xdg, 'voice', 'config.json'),
  JSON.stringify({ profiles: { default: { apiKey: 'profile-key', publicKey: 'profile-pk' }, work: { apiKey: 'work-key', baseUrl: 'http://127.0.0.1:9999' } } }),
);
const base = { HOME: home, XDG_CONFIG_HOME: xdg };

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('resolveDemoConfig', () => {
  it('takes flags over environment over the profile', () => {
    const env = { ...base, VOICE_PUBLIC_KEY: 'env-pk', VOICE_ASSISTANT_ID: 'env-asst', VOICE_LINK_WEBSITE: 'https://example.com' };
    const fromEnv = resolveDemoConfig({}, env);
    expect(fromEnv.page.publicKey).toBe('env-pk');
    expect(fromEnv.page.links.website).toBe('https://example.com');
    expect(fromEnv.apiKey).toBe('profile-key');
    expect(resolveDemoConfig({ publicKey: 'flag-pk' }, env).page.publicKey).toBe('flag-pk');
    expect(resolveDemoConfig({}, base).page.publicKey).toBe('profile-pk');
  });

  it('reads the named profile and its API URL', () => {
    const c = resolveDemoConfig({ profile: 'work' }, base);
    expect(c.apiKey).toBe('work-key');
    expect(c.apiUrl).toBe('http://127.0.0.1:9999');
    expect(readProfile({ ...base, VOICE_PROFILE: 'work' }).apiKey).toBe('work-key');
  });

  it('never puts the API key into the page configuration', () => {
    const c = resolveDemoConfig({}, { ...base, VOICE_API_KEY: 'secret-key' });
    expect(c.apiKey).toBe('secret-key');
    expect(JSON.stringify(c.page)).not.toContain('secret-key');
  });

  it('ignores key and API URL with --local', () => {
    const c = resolveDemoConfig({ local: true }, { ...base, VOICE_API_KEY: 'k', VOICE_API_URL: 'https://x.example' });
    expect([c.apiKey, c.apiUrl]).toEqual(['', '']);
  });

  it('defaults to the local webhook path, no strict mode and no links', () => {
    const c = resolveDemoConfig({}, { HOME: home, XDG_CONFIG_HOME: join(home, 'none') });
    expect(c.page).toMatchObject({ webhookUrl: '', strict: false, captions: true, supabaseUrl: '', links: { linkedin: '', website: '', twitter: '' } });
  });

  it('turns the captions off with --no-captions or VOICE_CAPTIONS=off (0, false, no), and only then', () => {
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'none') };
    expect(resolveDemoConfig({ captions: false }, env).page.captions).toBe(false);
    for (const value of ['off', 'OFF', '0', 'false', 'no']) expect(resolveDemoConfig({}, { ...env, VOICE_CAPTIONS: value }).page.captions).toBe(false);
    for (const value of ['on', '1', 'true', '']) expect(resolveDemoConfig({}, { ...env, VOICE_CAPTIONS: value }).page.captions).toBe(true);
  });
});
