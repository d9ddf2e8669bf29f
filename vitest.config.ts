import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// One runner for unit, CLI (real process) and browser (real Chromium) tests.
// cli, web and tests import core's faces as `voice-agent-core/<face>`: the `voice-source` condition picks
// core's sources (its other files are `#core/<file>`, the root package.json's `imports`).
// Vitest hands these conditions to Node for installed packages too: `module` would pick builds
// meant for bundlers (@opentelemetry/api's ESM build has extensionless imports Node cannot load,
// which silently stopped @sentry/node from sending), so it is left out.
const forNode = (c: string): boolean => c !== 'module';
export default defineConfig({
  resolve: { conditions: ['voice-source', ...defaultClientConditions.filter(forNode)] },
  ssr: { resolve: { conditions: ['voice-source', ...defaultServerConditions.filter(forNode)] } },
  test: {
    include: [
      'core/**/*.test.{ts,tsx}',
      'audio/**/*.test.ts',
      'examples/**/*.test.ts',
      'docs/**/*.test.ts',
      'cli/**/*.test.{ts,tsx}',
      'web/**/*.test.{ts,tsx}',
      'bench/**/*.test.ts',
      'scripts/**/*.test.ts',
      'supabase/**/*.test.ts',
    ],
    exclude: ['node_modules/**', 'dist/**', 'core/dist/**', 'audio/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time even on two cores (Vitest's default there is one): most tests wait on
    // a child process, a browser or a socket, so one file alone leaves a core idle. It buys about a
    // third of the suite's time on CI's two cores; every test already stands a busy machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // CLI process tests need dist/ built from the current sources; this rebuilds only when stale.
    globalSetup: ['cli/test/global-setup.ts'],
  },
});
