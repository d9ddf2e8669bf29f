import { defineConfig } from 'vitest/config';

// One runner for unit, CLI (real process) and browser (real Chromium) tests.
export default defineConfig({
  test: {
    include: ['core/**/*.test.{ts,tsx}', 'examples/**/*.test.ts', 'cli/**/*.test.{ts,tsx}', 'web/**/*.test.{ts,tsx}', 'bench/**/*.test.ts', 'scripts/**/*.test.ts', 'supabase/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'core/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CLI process tests need dist/ built from the current sources; this rebuilds only when stale.
    globalSetup: ['cli/test/global-setup.ts'],
  },
});
