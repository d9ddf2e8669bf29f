// The page's CSP names the API's socket origin: the emulator's web calls are joined over ws.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../web/src/config.js';
import { apiSocketOrigin, contentSecurityPolicy } from './demo-headers.js';

describe('connect-src of the demo page', () => {
  it('allows the configured API over ws (http) or wss (https), and nothing more without one', () => {
    expect(apiSocketOrigin({ ...defaultConfig, apiBaseUrl: 'http://127.0.0.1:4010' })).toBe('ws://127.0.0.1:4010');
    expect(apiSocketOrigin({ ...defaultConfig, apiBaseUrl: 'https://api.example/v1' })).toBe('wss://api.example');
    expect(apiSocketOrigin(defaultConfig)).toBeUndefined();
    const csp = contentSecurityPolicy({ ...defaultConfig, apiBaseUrl: 'http://127.0.0.1:4010', localCalls: true }, { nonce: 'n' });
    expect(csp).toMatch(/connect-src [^;]*ws:\/\/127\.0\.0\.1:4010/);
    expect(contentSecurityPolicy(defaultConfig, { nonce: 'n' })).not.toMatch(/ ws:\/\//);
  });
});
