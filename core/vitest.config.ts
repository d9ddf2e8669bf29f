import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// core's own tests, runnable on their own (`npm test -w core`); the repository's vitest.config.ts
// runs them with everything else. None needs the built CLI.
export default defineConfig({
  resolve: { conditions: ['voice-source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['voice-source', ...defaultServerConditions] } },
  test: {
    root: import.meta.dirname,
    include: ['**/*.test.{ts,tsx}'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
