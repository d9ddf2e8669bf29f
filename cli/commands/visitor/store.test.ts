// Where `voice visitor` looks for its settings, and which store it opens.
import { describe, expect, it } from 'vitest';
import type { CliError } from '../../errors.js';
import { VisitorError } from '#core/visitors/index';
import { openVisitorStore, resolveVisitorSettings, toCliError } from './store.js';

const profile = { supabaseUrl: 'https://profile.supabase.co', supabaseServiceRoleKey: 'profile-key', demoUrl: 'https://demo.example', visitorsFile: 'p.json' };

describe('visitor settings', () => {
  it('defaults to ./visitors.json and the local demo address', () => {
    expect(resolveVisitorSettings({}, {}, {})).toEqual({ file: './visitors.json', supabaseUrl: '', serviceRoleKey: '', demoUrl: 'http://127.0.0.1:5173' });
  });

  it('takes the flag, then the environment, then the profile', () => {
    const env = { VOICE_SUPABASE_URL: 'https://env.supabase.co', VOICE_VISITORS_FILE: 'env.json' };
    expect(resolveVisitorSettings({ visitors: 'flag.json' }, env, profile)).toMatchObject({
      file: 'flag.json',
      supabaseUrl: 'https://env.supabase.co',
      serviceRoleKey: 'profile-key',
      demoUrl: 'https://demo.example',
    });
    expect(resolveVisitorSettings({}, env, profile).file).toBe('env.json');
  });

  it('lets an explicit --profile beat the environment', () => {
    const env = { VOICE_SUPABASE_URL: 'https://env.supabase.co' };
    expect(resolveVisitorSettings({ profile: 'work' }, env, profile).supabaseUrl).toBe('https://profile.supabase.co');
  });

  it('opens the hosted table only with both URL and service-role key, and never with --local', async () => {
    const warnings: string[] = [];
    const settings = resolveVisitorSettings({}, {}, profile);
    expect((await openVisitorStore(settings, {}, (w) => warnings.push(w))).hosted).toBe(true);
    expect((await openVisitorStore(settings, { local: true }, (w) => warnings.push(w))).hosted).toBe(false);
    const half = await openVisitorStore({ ...settings, serviceRoleKey: '' }, {}, (w) => warnings.push(w));
    expect(half.hosted).toBe(false);
    expect(half.location).toBe('p.json');
    expect(warnings).toEqual([expect.stringContaining('VOICE_SUPABASE_SERVICE_ROLE_KEY is not')]);
  });

  it('maps visitor failures to the documented exit codes', () => {
    const code = (kind: VisitorError['kind']) => (toCliError(new VisitorError(kind, 'x')) as CliError).exitCode;
    expect([code('invalid'), code('corrupt'), code('not-found'), code('exists'), code('auth'), code('store')]).toEqual([2, 2, 1, 1, 4, 1]);
  });
});
