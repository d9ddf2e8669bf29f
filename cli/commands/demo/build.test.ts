// What `voice demo build` refuses before building: configurations a static page cannot use or
// must not carry, and output directories it would wrongly wipe.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '#core/visitors/page-config';
import { Command } from 'commander';
import { buildFlagsOf, demoBuildCommand } from './build.js';
import type { BuildFlags } from './build.js';
import { bakedConfig, checkBuildConfig, checkOutDir } from './build-run.js';

const page = { ...defaultConfig, supabaseUrl: 'https://abc.supabase.co', supabaseAnonKey: 'anon', webhookUrl: 'https://hooks.example/call', publicKey: 'pk', assistantId: 'a1' };
const jwt = (role: string) => `x.${Buffer.from(JSON.stringify({ role })).toString('base64url')}.sig`;

describe('the build configuration', () => {
  it('needs the hosted database URL', () => {
    expect(() => checkBuildConfig({ ...page, supabaseUrl: '' })).toThrow(/needs the hosted database/);
    expect(() => checkBuildConfig({ ...page, supabaseUrl: 'abc.supabase.co' })).toThrow(/is not a URL/);
  });

  it('refuses a service-role key and any secret among the page settings', () => {
    expect(() => checkBuildConfig({ ...page, supabaseAnonKey: jwt('service_role') })).toThrow(/service-role key/);
    expect(() => checkBuildConfig({ ...page, supabaseAnonKey: 'sb_secret_abc123' })).toThrow(/service-role key/);
    expect(() => checkBuildConfig({ ...page, publicKey: 'sk-private-123456' }, ['sk-private-123456'])).toThrow(/would be published/);
    expect(checkBuildConfig({ ...page, supabaseAnonKey: jwt('anon') })).toEqual([]);
  });

  it('warns about what will not work on a static host', () => {
    const warnings = checkBuildConfig({ ...page, supabaseAnonKey: '', webhookUrl: '/__voice/call-me', publicKey: '' });
    expect(warnings.join('\n')).toMatch(/No anon key/);
    expect(warnings.join('\n')).toMatch(/"Call Me" will fail/);
    expect(warnings.join('\n')).toMatch(/"Test in Browser"/);
  });
});

it('bakes only what is set, so the page keeps its defaults for the rest', () => {
  const baked = bakedConfig({ ...defaultConfig, supabaseUrl: 'https://abc.supabase.co', webhookUrl: '', links: { ...defaultConfig.links, website: 'https://x.example' } });
  expect(baked).toEqual({ supabaseUrl: 'https://abc.supabase.co', captions: true, strict: false, links: { website: 'https://x.example' } });
  // A seller is baked when one is configured (the name alone keeps the default mark).
  expect(bakedConfig({ ...defaultConfig, seller: { name: 'Northwind', logo: '' } }).seller).toEqual({ name: 'Northwind' });
});

describe('the output directory', () => {
  let dir: string;
  const root = join(tmpdir(), 'voice-pkg');
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'voice-out-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('may be new, empty, or an earlier build', () => {
    expect(() => checkOutDir(join(dir, 'new'), root, dir)).not.toThrow();
    expect(() => checkOutDir(dir, root, '/somewhere/else')).not.toThrow();
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(join(dir, 'old.js'), '');
    expect(() => checkOutDir(dir, root, '/somewhere/else')).not.toThrow();
  });

  it('is never the current directory, the package, web/ or a folder of other files', () => {
    expect(() => checkOutDir(dir, root, dir)).toThrow(/would overwrite/);
    expect(() => checkOutDir(join(dir, '..'), root, dir)).toThrow(/would overwrite/);
    expect(() => checkOutDir(root, root, dir)).toThrow(/would overwrite/);
    expect(() => checkOutDir(join(root, 'web', 'dist'), root, dir)).toThrow(/would overwrite/);
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'notes.txt'), 'mine');
    expect(() => checkOutDir(join(dir, 'docs'), root, dir)).toThrow(/not empty and holds no earlier build/);
  });
});

it('reads page flags that `voice demo` itself consumed, and its own --out', async () => {
  let seen: BuildFlags | undefined;
  const build = demoBuildCommand().action((_o: unknown, cmd: Command) => {
    seen = buildFlagsOf(cmd);
  });
  const demo = new Command('demo').option('--supabase-url <url>').option('--strict').addCommand(build);
  const program = new Command('voice').option('--json').addCommand(demo);
  await program.parseAsync(['demo', 'build', '--supabase-url', 'https://abc.supabase.co', '--strict', '--out', 'site', '--json'], { from: 'user' });
  expect(seen).toMatchObject({ out: 'site', supabaseUrl: 'https://abc.supabase.co', strict: true });
  expect(seen?.captions).toBe(true);
  await program.parseAsync(['demo', 'build', '--no-captions'], { from: 'user' });
  expect(seen?.captions).toBe(false);
  await program.parseAsync(['demo', 'build'], { from: 'user' });
  expect(seen?.out).toBe('dist/demo');
});
