// The flags printed commands carry to reach an emulator without a key.
import { describe, expect, it } from 'vitest';
import { localFlags } from '#core/hosts';
import { resolveSettings } from './settings.js';

describe('localFlags', () => {
  it('is --local on the default port, and adds --api-url elsewhere; either way no key is needed', () => {
    expect(localFlags('http://127.0.0.1:4010')).toBe('--local');
    expect(localFlags('http://127.0.0.1:4101/')).toBe('--local --api-url http://127.0.0.1:4101');
    const none = { XDG_CONFIG_HOME: '/nonexistent' };
    expect(resolveSettings({ local: true }, none)).toMatchObject({ baseUrl: 'http://127.0.0.1:4010', apiKey: expect.any(String) });
    expect(resolveSettings({ local: true, apiUrl: 'http://127.0.0.1:4101' }, none)).toMatchObject({ baseUrl: 'http://127.0.0.1:4101', apiKey: expect.any(String) });
  });
});
